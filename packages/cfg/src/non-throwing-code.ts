import * as t from '@babel/types';
import { isTypeKey } from './type-keys';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  getBindingIdentifiers,
  isIdentifier,
  isReferenced,
  isStringLiteral,
  isNumericLiteral,
  isTSType,
  VISITOR_KEYS,
} = t;

/**
 * The nodes of a program whose own evaluation (not their children's, see `evaluationMayThrow`) provably
 * cannot throw, so the graph builder gives their blocks no exceptional edge for them. Two kinds:
 *
 * - Operators that never run user code: `!`, `void`, `typeof`, `===`, `!==`, a `case` test's comparison,
 *   `==`/`!=` against `null`/`void` or between primitives (a function's name that is only written primitives
 *   counts as one),
 *   `&&`/`||`/`??`/`?:`/`,` themselves, array and object literals (a spread, and a computed key that is not a
 *   literal, keep their own throw), TypeScript's run-time no-op wrappers, `new.target`.
 * - Names whose binding is known (`nameMayThrow`): reads and writes of parameters, `var`s and function
 *   declarations of a function, `let`/`const`/`class` read after their declaration ran (temporal dead zone),
 *   `let`/`const` of a body's quiet start read from its functions (`QuietStart`), declarators of
 *   `let`/`const`; and reads of the global `undefined`, `NaN`, `Infinity`.
 *
 * Computed on the program as the graphs see it (after `lowerForDecisions`), from the AST alone, so the plugin
 * and the report (which rebuilds the graphs from the source) agree. Conservative everywhere else: a name inside
 * a `with` body or a TypeScript namespace, inside a parameter list, or one that resolves to nothing declared.
 */
export function nonThrowingCode(program: t.Program): ReadonlySet<t.Node> {
  const walk = new BindingWalk();
  walk.program(program);
  return walk.finish();
}

/** How a binding behaves when read or written; `Other` (imports, a class's own name, enums) is never trusted. */
const enum BindingKind {
  /** `var`, parameter, function declaration, catch parameter: initialised when its scope starts, mutable. */
  VarLike,
  /** `let`, a `class` declaration: in its temporal dead zone until its declaration ran. */
  Lexical,
  Const,
  /** A function expression's own name: always initialised, immutable. */
  FunctionName,
  Other,
}

/** Code that runs when something calls it (a function, a class body): bindings outside are seen as closures. */
interface Owner {
  readonly parent: Owner | null;
  /** The walk's counter when the owner was created (for a class body or non-hoisted function, when it runs). */
  readonly order: number;
  /** A function declaration: created when its scope starts, before any declaration in it ran. */
  readonly hoisted: boolean;
  /** A program or TypeScript namespace: its `var`s are properties of an object others can change. */
  readonly global: boolean;
  /** Mentions `eval`: a direct one can declare `var`s here that shadow bindings further out. */
  mayEval: boolean;
}

interface Scope {
  readonly parent: Scope | null;
  readonly owner: Owner;
  /** Where `var`s go: a function, the program, a static block, a namespace. */
  readonly varScope: boolean;
  /** A `switch`'s cases: a jump to a later case skips the declarations before it. */
  readonly switchCases: boolean;
  /** Created at the first declaration: most blocks declare nothing, and resolution skips them cheaply. */
  names: Map<string, Binding> | null;
}

interface Binding {
  readonly kind: BindingKind;
  readonly scope: Scope;
  /** The walk's counter once the declaration finished (lexical bindings); -1 until then. */
  readyAt: number;
  /** Decided in `finish`: initialised before any function of its scope can run, hoisted ones included. */
  quiet: boolean;
  /**
   * Declared by `var`, `let` or `const` alone, and every write seen gives it a primitive (`typeof x`, a literal,
   * `+=`): its value is a primitive wherever it is read (`undefined` before any write).
   */
  primitive: boolean;
}

/**
 * The statements a function's body (or the program) starts with that cannot call any function declared in it:
 * its `let`s and `const`s are initialised before a hoisted function of the body can first run, so reads of
 * them there cannot be in the temporal dead zone. A hoisted function exists from the body's start, but only
 * code that names it (or a closure that does, or a direct `eval`) can call it: the start's statements create
 * no closure, do not suspend, mention no `eval` and no name any function or class of the file declares
 * (checked in `finish`, once every declaration is known). Calls and property reads are allowed there: what
 * they run cannot reach a function no one named.
 *
 * The program's start is stricter (`codeless`): a script's functions are properties of the global object
 * from before its first statement, which any other code can call, and a throw there would leave the binding
 * uninitialised for good; so its statements may run no code at all (literals, array and object literals of
 * them). A module that imports anything has no quiet start: in an import cycle, another module can call its
 * exported functions before its body runs.
 */
interface QuietStart {
  readonly codeless: boolean;
  /** Names read by the start's statements so far. */
  readonly names: string[];
}

/** A write of a name and whether the value written is sure to be a primitive. */
interface Write {
  readonly name: string;
  readonly scope: Scope;
  readonly primitive: boolean;
}

interface Reference {
  readonly node: t.Identifier;
  readonly scope: Scope;
  readonly owner: Owner;
  readonly order: number;
  readonly write: boolean;
  /** `x = v`, `x ??= v`: the assignment itself cannot throw when writing `x` cannot. */
  readonly assignment: t.AssignmentExpression | null;
}

/** Globals that are non-writable and non-configurable: reading them cannot throw (nor run a getter). */
const CONSTANT_GLOBALS = new Set(['undefined', 'NaN', 'Infinity']);

/** Per node type, its visitor keys but those of type annotations. */
const CODE_KEYS = new Map<string, readonly string[]>();

function codeKeys(type: string): readonly string[] {
  let keys = CODE_KEYS.get(type);
  if (!keys) {
    keys = (VISITOR_KEYS[type] ?? []).filter((key) => !isTypeKey(key));
    CODE_KEYS.set(type, keys);
  }
  return keys;
}

const QUIET_UNARY = new Set(['!', 'void', 'typeof']);
const QUIET_ASSIGNMENT = new Set(['=', '&&=', '||=', '??=']);

/**
 * `==` and `!=` convert an object to a primitive (its `valueOf`, `toString`, `Symbol.toPrimitive` run) only
 * against a number, string, bigint or symbol: never against `null` or `undefined` (`x == null`, `x != void 0`),
 * and never between two primitives (`typeof x == 'object'`).
 */
function quietLooseEquality(n: t.BinaryExpression, primitive: (e: t.Node) => boolean): boolean {
  const nullish = (e: t.Node) =>
    e.type === 'NullLiteral' || (e.type === 'UnaryExpression' && e.operator === 'void');
  return nullish(n.left) || nullish(n.right) || (primitive(n.left) && primitive(n.right));
}

/**
 * An expression whose value is a primitive whatever its operands: a literal, a template, an operator's result
 * (`typeof x`, `a + b`, `!x`, `i++`: none gives an object).
 */
function isPrimitive(e: t.Node): boolean {
  switch (e.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
    case 'TemplateLiteral':
    case 'UnaryExpression':
    case 'UpdateExpression':
      return true;
    case 'BinaryExpression':
      // But the proposed pipeline `x |> f`: a call.
      return (e.operator as string) !== '|>';
    default:
      return false;
  }
}

class BindingWalk {
  private readonly safe = new Set<t.Node>();
  private readonly references: Reference[] = [];
  /** `==`/`!=` whose operands may be names of primitive bindings: decided once every write is known. */
  private readonly looseEqualities: { node: t.BinaryExpression; scope: Scope }[] = [];
  private readonly writes: Write[] = [];
  /** Names of function and class declarations: a function in a block also writes an outer `var` (Annex B). */
  private readonly declaredNames = new Set<string>();
  /** Owners with an `eval`, a `with` or a namespace body: writes the walk cannot see, to their bindings and out. */
  private readonly blindOwners: Owner[] = [];
  private order = 0;
  private scope!: Scope;
  private owner!: Owner;
  /** Inside a `with` body or a namespace: no name is trusted. */
  private opaque = false;
  /** Inside a parameter list (or a catch parameter): names there can be in their temporal dead zone. */
  private inParameters = false;
  /** The declaration being walked when it is a statement of a body's quiet start, and that start. */
  private quietDeclaration: t.VariableDeclaration | null = null;
  private quietStart: QuietStart | null = null;
  /** `let`s and `const`s of quiet starts, with how many names their start had read by their declaration. */
  private readonly quietBindings: { binding: Binding; start: QuietStart; names: number }[] = [];

  program(program: t.Program): void {
    this.owner = { parent: null, order: 0, hoisted: false, global: true, mayEval: false };
    this.scope = this.newScope(true, false);
    this.body(program.body, hasModuleRequest(program) ? null : { codeless: true, names: [] });
  }

  finish(): ReadonlySet<t.Node> {
    for (const { binding, start, names } of this.quietBindings) {
      let quiet = true;
      for (let i = 0; i < names && quiet; i++) quiet = !this.declaredNames.has(start.names[i]);
      binding.quiet = quiet;
    }
    for (const w of this.writes) {
      const binding = w.primitive ? undefined : this.resolve(w.name, w.scope);
      if (binding) binding.primitive = false;
    }
    for (const { node, scope } of this.looseEqualities) {
      const primitive = (e: t.Node) =>
        isPrimitive(e) || (isIdentifier(e) && this.primitiveName(e.name, scope));
      if (quietLooseEquality(node, primitive)) this.safe.add(node);
    }
    for (const ref of this.references) {
      if (!this.nameMayThrow(ref)) {
        this.safe.add(ref.node);
        if (ref.assignment) this.safe.add(ref.assignment);
      }
    }
    return this.safe;
  }

  // ---------------------------------------------------------------- resolution

  private resolve(name: string, scope: Scope): Binding | undefined {
    let binding: Binding | undefined;
    for (let s: Scope | null = scope; s && !binding; s = s.parent) binding = s.names?.get(name);
    return binding;
  }

  /**
   * Whether reading `name` (from `this.scope`) gives a primitive: a function's (not the program's, which other
   * scripts can write) binding that only ever holds primitives, when the walk saw every write.
   */
  private primitiveName(name: string, scope: Scope): boolean {
    if (this.declaredNames.has(name)) return false;
    const binding = this.resolve(name, scope);
    if (!binding?.primitive || binding.scope.owner.global) return false;
    const home = binding.scope.owner;
    return !this.blindOwners.some((o) => isWithin(o, home));
  }

  private sawEval(): void {
    this.owner.mayEval = true;
    this.blindOwners.push(this.owner);
  }

  /** `x = v` in a declaration writes `v`; a pattern writes anything; no initialiser writes nothing. */
  private declaratorWrite(decl: t.VariableDeclarator): void {
    if (!isIdentifier(decl.id)) return this.writesAny(decl.id);
    if (decl.init)
      this.writes.push({ name: decl.id.name, scope: this.scope, primitive: isPrimitive(decl.init) });
  }

  /** Every name `target` binds or assigns is written a value that may not be a primitive. */
  private writesAny(target: t.Node): void {
    for (const name of Object.keys(getBindingIdentifiers(target)))
      this.writes.push({ name, scope: this.scope, primitive: false });
  }

  private nameMayThrow(ref: Reference): boolean {
    const name = ref.node.name;
    let binding: Binding | undefined;
    for (let s: Scope | null = ref.scope; s && !binding; s = s.parent) binding = s.names?.get(name);
    if (!binding) return ref.write || !CONSTANT_GLOBALS.has(name) || evalBetween(ref.owner, null);
    if (evalBetween(ref.owner, binding.scope.owner)) return true;
    switch (binding.kind) {
      case BindingKind.VarLike:
        // A script's top-level `var`s and functions are properties of the global object (maybe accessors).
        return binding.scope.varScope && binding.scope.owner.global;
      case BindingKind.FunctionName:
        return ref.write;
      case BindingKind.Const:
        return ref.write || !initialisedAt(ref, binding);
      case BindingKind.Lexical:
        return !initialisedAt(ref, binding);
      default:
        return true;
    }
  }

  // ---------------------------------------------------------------- scopes and declarations

  private newScope(varScope: boolean, switchCases: boolean): Scope {
    return { parent: this.scope ?? null, owner: this.owner, varScope, switchCases, names: null };
  }

  private within(scope: Scope, run: () => void): void {
    const outer = this.scope;
    this.scope = scope;
    run();
    this.scope = outer;
  }

  private declare(scope: Scope, name: string, kind: BindingKind): Binding {
    scope.names ??= new Map();
    const existing = scope.names.get(name);
    // A parameter, `var` or function of the same name shares one binding; all of these shadow the own name.
    if (existing && existing.kind !== BindingKind.FunctionName) return existing;
    const primitive =
      kind === BindingKind.VarLike || kind === BindingKind.Lexical || kind === BindingKind.Const;
    const binding: Binding = { kind, scope, readyAt: -1, primitive, quiet: false };
    scope.names.set(name, binding);
    return binding;
  }

  private varScope(): Scope {
    let s = this.scope;
    while (!s.varScope) s = s.parent!;
    return s;
  }

  private declareAll(scope: Scope, target: t.Node, kind: BindingKind): Binding[] {
    if (isIdentifier(target)) return [this.declare(scope, target.name, kind)];
    return Object.keys(getBindingIdentifiers(target)).map((name) => this.declare(scope, name, kind));
  }

  /** A new owner (function or class body) for `run`, with its own scope. */
  private owned(hoisted: boolean, varScope: boolean, run: () => void): void {
    const outerOwner = this.owner;
    const outerScope = this.scope;
    // A closure in a parameter list stays inside it: a default's arrow that names a body `var` sees none.
    this.owner = { parent: outerOwner, order: this.order, hoisted, global: false, mayEval: false };
    this.scope = this.newScope(varScope, false);
    run();
    this.owner = outerOwner;
    this.scope = outerScope;
  }

  // ---------------------------------------------------------------- the walk

  private statements(list: readonly t.Node[]): void {
    for (const s of list) this.node(s, null, null);
  }

  /** A function's or the program's statements: while they are quiet (`QuietStart`), their `let`s and `const`s are. */
  private body(list: readonly t.Statement[], start: QuietStart | null): void {
    for (const s of list) {
      if (start && !quietStatement(s, start)) start = null;
      this.quietStart = start;
      this.quietDeclaration = !start
        ? null
        : s.type === 'VariableDeclaration'
          ? s
          : s.type === 'ExportNamedDeclaration' && s.declaration?.type === 'VariableDeclaration'
            ? s.declaration
            : null;
      this.node(s, null, null);
    }
    this.quietDeclaration = null;
  }

  private children(n: t.Node, parent: t.Node | null): void {
    // Indexed loops: a `for…of` not yet optimised allocates an iterator and a result per step, and this walk
    // of every node runs mostly before V8 optimises it (a fresh process's first transform).
    const keys = codeKeys(n.type);
    for (let k = 0; k < keys.length; k++) {
      const child = (n as unknown as Record<string, unknown>)[keys[k]];
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const c: unknown = child[i];
          if (c && typeof c === 'object' && 'type' in c) this.node(c as t.Node, n, parent);
        }
      } else if (child && typeof child === 'object' && 'type' in child) {
        this.node(child as t.Node, n, parent);
      }
    }
  }

  private node(n: t.Node, parent: t.Node | null, grandparent: t.Node | null): void {
    this.order++;
    switch (n.type) {
      case 'Identifier':
        return this.identifier(n, parent, grandparent);
      case 'FunctionDeclaration':
        if (n.declare) return;
        if (n.id) this.declaredNames.add(n.id.name);
        // In a statement list, initialised when its scope starts. As the body of an `if` or a label (sloppy
        // Annex B) it binds in a block of its own, and a `let` of its name may stand beside it: not declared
        // here, names resolve further out (a `var` Annex B adds there cannot throw).
        if (n.id && parent?.type !== 'IfStatement' && parent?.type !== 'LabeledStatement')
          this.declare(this.scope, n.id.name, BindingKind.VarLike);
        return this.functionParts(n, true);
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ObjectMethod':
      case 'ClassMethod':
      case 'ClassPrivateMethod':
        if (n.type !== 'FunctionExpression' && n.type !== 'ArrowFunctionExpression' && n.computed)
          this.node(n.key, n, null);
        for (const d of ('decorators' in n && n.decorators) || []) this.node(d, n, null);
        return this.functionParts(n, false);
      case 'VariableDeclaration':
        return this.variableDeclaration(n);
      case 'ClassDeclaration':
      case 'ClassExpression':
        return this.classParts(n);
      case 'StaticBlock':
        return this.owned(false, true, () => this.body(n.body, { codeless: false, names: [] }));
      case 'BlockStatement':
        return this.within(this.newScope(false, false), () => this.statements(n.body));
      case 'ForStatement':
        return this.within(this.newScope(false, false), () => {
          if (n.init) this.node(n.init, n, null);
          for (const part of [n.test, n.update, n.body]) if (part) this.node(part, n, null);
        });
      case 'ForInStatement':
      case 'ForOfStatement':
        return this.forEach(n);
      case 'SwitchStatement':
        this.node(n.discriminant, n, null);
        return this.within(this.newScope(false, true), () => {
          for (const c of n.cases) {
            this.order++;
            this.safe.add(c);
            if (c.test) this.node(c.test, c, n);
            this.statements(c.consequent);
          }
        });
      case 'CatchClause':
        return this.within(this.newScope(false, false), () => {
          if (n.param) {
            this.declareAll(this.scope, n.param, BindingKind.VarLike);
            this.writesAny(n.param);
            this.parameter(n.param, n);
          }
          this.node(n.body, n, null);
        });
      case 'WithStatement': {
        this.blindOwners.push(this.owner);
        this.node(n.object, n, null);
        const outer = this.opaque;
        this.opaque = true;
        this.node(n.body, n, null);
        this.opaque = outer;
        return;
      }
      case 'TSModuleDeclaration':
        if (n.declare) return;
        if (isIdentifier(n.id)) this.declare(this.scope, n.id.name, BindingKind.Other);
        return this.namespace(n);
      case 'TSEnumDeclaration':
      case 'TSImportEqualsDeclaration':
        if (!('declare' in n && n.declare)) this.declare(this.scope, n.id.name, BindingKind.Other);
        return this.children(n, parent);
      case 'ImportDeclaration':
        for (const s of n.specifiers) this.declare(this.scope, s.local.name, BindingKind.Other);
        return;
      case 'AssignmentExpression':
        return this.assignment(n);
      case 'ObjectExpression':
        if (!n.properties.some((p) => p.type === 'ObjectMethod' && p.computed && !isLiteralKey(p.key)))
          this.safe.add(n);
        return this.children(n, parent);
      case 'ObjectProperty':
        if (parent?.type === 'ObjectExpression' && (!n.computed || isLiteralKey(n.key))) this.safe.add(n);
        return this.children(n, parent);
      case 'UnaryExpression':
        if (QUIET_UNARY.has(n.operator)) this.safe.add(n);
        return this.children(n, parent);
      case 'BinaryExpression':
        if (n.operator === '===' || n.operator === '!==') this.safe.add(n);
        else if (n.operator === '==' || n.operator === '!=') {
          if (!this.opaque) this.looseEqualities.push({ node: n, scope: this.scope });
          else if (quietLooseEquality(n, isPrimitive)) this.safe.add(n);
        }
        return this.children(n, parent);
      case 'SequenceExpression':
      case 'LogicalExpression':
      case 'ConditionalExpression':
      case 'ParenthesizedExpression':
      case 'ArrayExpression':
      case 'MetaProperty':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TSInstantiationExpression':
        this.safe.add(n);
        return this.children(n, parent);
      default:
        if (isTSType(n) || n.type === 'TSTypeAnnotation') return;
        return this.children(n, parent);
    }
  }

  private identifier(n: t.Identifier, parent: t.Node | null, grandparent: t.Node | null): void {
    if (n.name === 'eval') this.sawEval();
    if (parent && !isReferenced(n, parent, grandparent ?? undefined)) {
      // A property's name, `new.target`'s parts: no binding is read.
      if (
        ((parent.type === 'MemberExpression' || parent.type === 'OptionalMemberExpression') &&
          parent.property === n) ||
        (parent.type === 'ObjectProperty' && parent.key === n && grandparent?.type === 'ObjectExpression') ||
        parent.type === 'MetaProperty'
      )
        this.safe.add(n);
      return;
    }
    // `a.b` reads `b` right after `a`, in the same block, and that read can throw: whether `a` can does not
    // matter (but for an assignment's target, whose write comes after the value).
    if (
      parent?.type === 'MemberExpression' &&
      parent.object === n &&
      !parent.computed &&
      !(grandparent?.type === 'AssignmentExpression' && grandparent.left === parent)
    )
      return;
    this.reference(n, false, null);
  }

  private reference(n: t.Identifier, write: boolean, assignment: t.AssignmentExpression | null): void {
    if (this.opaque || this.inParameters) return;
    this.references.push({
      node: n,
      scope: this.scope,
      owner: this.owner,
      order: this.order,
      write,
      assignment,
    });
  }

  /** A function's own name, parameters and body, as a new owner. */
  private functionParts(fn: t.Function, hoisted: boolean): void {
    this.owned(hoisted, true, () => {
      if (fn.type === 'FunctionExpression' && fn.id)
        this.declare(this.scope, fn.id.name, BindingKind.FunctionName);
      for (const p of fn.params) {
        const param = p.type === 'TSParameterProperty' ? p.parameter : p;
        this.declareAll(this.scope, param, BindingKind.VarLike);
        this.writesAny(param);
      }
      for (const p of fn.params) this.parameter(p, fn);
      // The body's top-level declarations are the function's (no block scope of their own).
      if (fn.body.type === 'BlockStatement') this.body(fn.body.body, { codeless: false, names: [] });
      else this.node(fn.body, fn, null);
    });
  }

  /** A parameter (or catch parameter): binding sites, and defaults or keys that run while others are unbound. */
  private parameter(p: t.Node, parent: t.Node): void {
    const outer = this.inParameters;
    this.inParameters = true;
    this.node(p, parent, null);
    this.inParameters = outer;
  }

  private variableDeclaration(d: t.VariableDeclaration): void {
    if (d.declare) return;
    if (d.kind === 'var') {
      const scope = this.varScope();
      for (const decl of d.declarations) {
        this.declareAll(scope, decl.id, BindingKind.VarLike);
        this.declaratorWrite(decl);
        this.target(decl.id, 'assign');
        if (decl.init) this.node(decl.init, decl, d);
      }
      return;
    }
    const kind = d.kind === 'let' ? BindingKind.Lexical : BindingKind.Const;
    const bindings = d.declarations.flatMap((decl) => this.declareAll(this.scope, decl.id, kind));
    for (const decl of d.declarations) {
      this.declaratorWrite(decl);
      this.target(decl.id, 'init');
      if (decl.init) this.node(decl.init, decl, d);
    }
    for (const b of bindings) b.readyAt = this.order;
    if (d === this.quietDeclaration && this.quietStart) {
      this.quietDeclaration = null;
      const start = this.quietStart;
      for (const binding of bindings) this.quietBindings.push({ binding, start, names: start.names.length });
    }
  }

  /**
   * `for (… in/of …)`: a `let`/`const` head is in its temporal dead zone while the right side is evaluated,
   * and initialised afresh for each iteration before the body.
   */
  private forEach(s: t.ForInStatement | t.ForOfStatement): void {
    this.within(this.newScope(false, false), () => {
      const left = s.left;
      let bindings: Binding[] = [];
      if (left.type === 'VariableDeclaration' && left.kind !== 'var') {
        const kind = left.kind === 'let' ? BindingKind.Lexical : BindingKind.Const;
        bindings = left.declarations.flatMap((decl) => this.declareAll(this.scope, decl.id, kind));
        for (const decl of left.declarations) this.target(decl.id, 'init');
      } else if (left.type === 'VariableDeclaration') {
        this.variableDeclaration(left);
      } else this.target(left, 'assign');
      // `for … in` writes keys (strings) to a name; a pattern or `for … of` writes anything.
      const written = left.type === 'VariableDeclaration' ? left.declarations[0].id : left;
      if (s.type === 'ForOfStatement' || !isIdentifier(written)) this.writesAny(written);
      this.node(s.right, s, null);
      for (const b of bindings) b.readyAt = this.order;
      this.node(s.body, s, null);
    });
  }

  /**
   * A binding or assignment target: `init` binds a `let`/`const` (which cannot throw), `assign` writes names
   * through their bindings. Defaults and computed keys inside are walked as expressions.
   */
  private target(p: t.Node, mode: 'init' | 'assign'): void {
    this.order++;
    switch (p.type) {
      case 'Identifier':
        if (p.name === 'eval') this.sawEval();
        if (mode === 'assign') this.reference(p, true, null);
        else if (!this.opaque && !this.inParameters) this.safe.add(p);
        return;
      case 'ObjectPattern':
        for (const prop of p.properties) {
          if (prop.type === 'RestElement') this.target(prop.argument, mode);
          else {
            if (prop.computed) this.node(prop.key, prop, p);
            this.target(prop.value, mode);
          }
        }
        return;
      case 'ArrayPattern':
        for (const el of p.elements) if (el) this.target(el, mode);
        return;
      case 'RestElement':
        return this.target(p.argument, mode);
      case 'AssignmentPattern':
        this.target(p.left, mode);
        return this.node(p.right, p, null);
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
        return this.target(p.expression, mode);
      default:
        return this.node(p, null, null);
    }
  }

  private assignment(e: t.AssignmentExpression): void {
    const left = e.left;
    if (left.type === 'Identifier') {
      this.order++;
      if (left.name === 'eval') this.sawEval();
      this.reference(left, true, QUIET_ASSIGNMENT.has(e.operator) ? e : null);
      // `x op= v` gives a number, string or bigint; `=`, `&&=`, `||=`, `??=` may give `v`.
      const primitive = !QUIET_ASSIGNMENT.has(e.operator) || isPrimitive(e.right);
      this.writes.push({ name: left.name, scope: this.scope, primitive });
    } else if (left.type === 'MemberExpression' || left.type === 'OptionalMemberExpression') {
      this.node(left, e, null);
    } else {
      this.target(left, 'assign');
      this.writesAny(left);
    }
    this.node(e.right, e, null);
  }

  /** A class: its name is bound inside it (never trusted) and, for a declaration, outside once it ran. */
  private classParts(c: t.Class): void {
    if (c.type === 'ClassDeclaration' && c.declare) return;
    if (c.type === 'ClassDeclaration' && c.id) this.declaredNames.add(c.id.name);
    const outer =
      c.type === 'ClassDeclaration' && c.id ? this.declare(this.scope, c.id.name, BindingKind.Lexical) : null;
    this.within(this.newScope(false, false), () => {
      if (c.id) this.declare(this.scope, c.id.name, BindingKind.Other);
      for (const d of c.decorators ?? []) this.node(d, c, null);
      if (c.superClass) this.node(c.superClass, c, null);
      // Computed keys, field values, methods and static blocks all run as (or in) code the class calls.
      this.owned(false, false, () => this.children(c.body, c));
    });
    if (outer) outer.readyAt = this.order;
  }

  private namespace(n: t.TSModuleDeclaration): void {
    const outerOwner = this.owner;
    const outerScope = this.scope;
    const outerOpaque = this.opaque;
    this.owner = { parent: outerOwner, order: this.order, hoisted: true, global: true, mayEval: false };
    this.scope = this.newScope(true, false);
    this.opaque = true;
    this.blindOwners.push(this.owner);
    this.node(n.body, n, null);
    this.owner = outerOwner;
    this.scope = outerScope;
    this.opaque = outerOpaque;
  }
}

/** `import`, `export … from`: the module may be in a cycle whose other modules run first. */
function hasModuleRequest(program: t.Program): boolean {
  return program.body.some(
    (s) =>
      s.type === 'ImportDeclaration' ||
      s.type === 'ExportAllDeclaration' ||
      (s.type === 'ExportNamedDeclaration' && s.source != null) ||
      s.type === 'TSImportEqualsDeclaration',
  );
}

/** Whether a statement can continue a body's quiet start (`QuietStart`); the names it reads go to the start's. */
function quietStatement(s: t.Statement, start: QuietStart): boolean {
  switch (s.type) {
    case 'FunctionDeclaration':
    case 'EmptyStatement':
    case 'TSTypeAliasDeclaration':
    case 'TSInterfaceDeclaration':
    case 'TSDeclareFunction':
      return true;
    case 'VariableDeclaration':
      return (
        s.declare === true ||
        s.declarations.every((d) => quietTarget(d.id, start) && (!d.init || quietExpression(d.init, start)))
      );
    case 'ExpressionStatement':
      return !start.codeless && quietExpression(s.expression, start);
    case 'ExportNamedDeclaration':
      return !s.source && (!s.declaration || quietStatement(s.declaration, start));
    case 'ExportDefaultDeclaration':
      return s.declaration.type === 'FunctionDeclaration';
    default:
      return false;
  }
}

/** A declarator's target: a name, or (but at the program's start) a pattern with quiet defaults and keys. */
function quietTarget(p: t.Node, start: QuietStart): boolean {
  if (p.type === 'Identifier') return true;
  if (start.codeless) return false;
  switch (p.type) {
    case 'ObjectPattern':
      return p.properties.every((prop) =>
        prop.type === 'RestElement'
          ? quietTarget(prop.argument, start)
          : (!prop.computed || quietExpression(prop.key, start)) && quietTarget(prop.value, start),
      );
    case 'ArrayPattern':
      return p.elements.every((el) => el === null || quietTarget(el, start));
    case 'RestElement':
      return quietTarget(p.argument, start);
    case 'AssignmentPattern':
      return quietTarget(p.left, start) && quietExpression(p.right, start);
    default:
      return false;
  }
}

/**
 * Whether an expression of a quiet start creates no closure, does not suspend and mentions no `eval` (its
 * names go to `start.names`); at the program's start, whether it runs no code and cannot throw.
 */
function quietExpression(e: t.Node, start: QuietStart): boolean {
  const each = (list: readonly (t.Node | null)[]) =>
    list.every((x) => x === null || quietExpression(x, start));
  switch (e.type) {
    case 'StringLiteral':
    case 'NumericLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'BigIntLiteral':
    case 'RegExpLiteral':
      return true;
    case 'TemplateLiteral':
      return start.codeless ? e.expressions.length === 0 : each(e.expressions);
    case 'ArrayExpression':
      return each(e.elements);
    case 'ObjectExpression':
      return e.properties.every((p) =>
        p.type === 'ObjectProperty'
          ? (!p.computed || (start.codeless ? isLiteralKey(p.key) : quietExpression(p.key, start))) &&
            quietExpression(p.value, start)
          : p.type === 'SpreadElement' && quietExpression(p, start),
      );
    case 'UnaryExpression':
      // `-1n` and `-1` cannot throw; `+1n` can.
      if (start.codeless)
        return e.operator === '-' && (isNumericLiteral(e.argument) || e.argument.type === 'BigIntLiteral');
      return quietExpression(e.argument, start);
  }
  if (start.codeless) return false;
  switch (e.type) {
    case 'Identifier':
      if (e.name === 'eval') return false;
      start.names.push(e.name);
      return true;
    case 'ThisExpression':
    case 'Super':
    case 'MetaProperty':
      return true;
    case 'SpreadElement':
      return quietExpression(e.argument, start);
    case 'MemberExpression':
    case 'OptionalMemberExpression':
      return quietExpression(e.object, start) && (!e.computed || quietExpression(e.property, start));
    case 'CallExpression':
    case 'OptionalCallExpression':
    case 'NewExpression':
      return e.callee.type !== 'Import' && quietExpression(e.callee, start) && each(e.arguments);
    case 'TaggedTemplateExpression':
      return quietExpression(e.tag, start) && quietExpression(e.quasi, start);
    case 'BinaryExpression':
      return (
        e.left.type !== 'PrivateName' && quietExpression(e.left, start) && quietExpression(e.right, start)
      );
    case 'LogicalExpression':
      return quietExpression(e.left, start) && quietExpression(e.right, start);
    case 'ConditionalExpression':
      return each([e.test, e.consequent, e.alternate]);
    case 'SequenceExpression':
      return each(e.expressions);
    case 'ParenthesizedExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'TSTypeAssertion':
      return quietExpression(e.expression, start);
    default:
      return false;
  }
}

function isLiteralKey(key: t.Node): boolean {
  return isStringLiteral(key) || isNumericLiteral(key);
}

/** Whether `inner` is `outer` or runs inside it. */
function isWithin(inner: Owner, outer: Owner): boolean {
  for (let o: Owner | null = inner; o; o = o.parent) if (o === outer) return true;
  return false;
}

/** Whether an owner from `from` out to `to` (excluded; null: the program too) mentions `eval`. */
function evalBetween(from: Owner, to: Owner | null): boolean {
  for (let o: Owner | null = from; o && o !== to; o = o.parent) if (o.mayEval) return true;
  return false;
}

/**
 * Whether a lexical binding is initialised wherever `ref` runs: in the same owner, after the declaration
 * (code runs in source order there, but for a `switch`); in a closure, when the binding is of its body's
 * quiet start (`QuietStart`), or when the outermost closure between them is created only after the
 * declaration ran (not a function declaration, which its scope creates first).
 */
function initialisedAt(ref: Reference, binding: Binding): boolean {
  const home = binding.scope.owner;
  if (binding.scope.switchCases || binding.readyAt < 0) return false;
  if (ref.owner === home) return ref.order > binding.readyAt;
  let outermost: Owner = ref.owner;
  while (outermost.parent !== home) {
    if (!outermost.parent) return false;
    outermost = outermost.parent;
  }
  return binding.quiet || (!outermost.hoisted && outermost.order > binding.readyAt);
}
