import { template } from '@babel/core';
import * as t from '@babel/types';
import type { FreshName } from '@pathprof/cfg';
import { compactMetadata, HASH_FRONT_SLOTS } from '@pathprof/runtime';
import type { CounterVariables } from './counter-variables';
import type { FileMetadata } from './metadata';
import {
  assignmentExpression,
  binaryExpression,
  blockStatement,
  callExpression,
  conditionalExpression,
  identifier,
  logicalExpression,
  memberExpression,
  numericLiteral,
  stringLiteral,
  unaryExpression,
  variableDeclaration,
  variableDeclarator,
} from '@pathprof/cfg';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const {
  cloneNode,
  functionDeclaration,
  ifStatement,
  importDeclaration,
  importDefaultSpecifier,
  returnStatement,
} = t;

// The runtime's `HashFront`: a path's slot holds it, or `miss` counts it (and moves the slot's other path to
// its table). Valid before the body ran (a module cycle): `keys` is undefined until then.
const buildFrontCount = template.statement(`function %%count%%(path, table) {
  var slot = path & ${HASH_FRONT_SLOTS - 1};
  if (%%keys%% !== void 0 && %%keys%%[slot] === path) %%counts%%[slot]++;
  else %%init%%().front.miss(path, table);
}`);

/**
 * The file-level half of the instrumentation: a lazily registered record of this file's counters. A
 * hoisted, idempotent `function init()` registers on first use, so a function called before the file's body
 * ran (a module cycle, a hoisted call) still counts. The body's first statement keeps the counter array in
 * `var array = init().counts`, the only assignment to it: V8 then treats the array as a constant in optimised
 * code, and an activation reads it for the price of an `undefined` check (bench/NOTES.md, "Counters hoisted").
 */
export class FileCounters {
  readonly record: t.Identifier;
  readonly init: t.Identifier;
  readonly runtime: t.Identifier;
  /** The file's counter array once the body's first statement ran; `undefined` before. Never reassigned. */
  readonly array: t.Identifier;
  /** The same for the file's hash tables (`HashCounter`s of the functions or components counted by path). */
  readonly tables: t.Identifier;
  /** The same for the file's calling contexts (`FileContexts`), when it counts them. */
  readonly contextsRecord: t.Identifier;
  /** The keys and counts of the file's `HashFront`, and the function that counts a path through them. */
  private readonly front: { keys: t.Identifier; counts: t.Identifier; count: t.Identifier };
  private usesFront = false;
  private usesTables = false;

  /**
   * `preambleFirst`: no code of the file can run before its preamble, as in a file without `import` or
   * `export` (a script or CommonJS: its functions are reachable only through what its body, preamble first,
   * does; only an ES module's linking can call into a module whose body has not run). Its counting code
   * then reads the preamble's variables as they are, without the `=== void 0` fallback (lodash: 683
   * functions, 38 KB of output; no run-time difference measured: bench/NOTES.md, "Output size ≤ 0.5×
   * istanbul's on every file"). Otherwise `early` holds the functions that can run before it
   * (`functionsBeforePreamble`); the others read the variables as they are too.
   */
  constructor(
    fresh: FreshName,
    private readonly preambleFirst = false,
    private readonly early: ReadonlySet<t.Node> | null = null,
  ) {
    this.record = fresh('pp_file');
    this.init = fresh('pp_init');
    this.runtime = fresh('pp_runtime');
    this.array = fresh('pp_counts');
    this.tables = fresh('pp_hashed');
    this.contextsRecord = fresh('pp_contexts');
    this.front = { keys: fresh('pp_fk'), counts: fresh('pp_fc'), count: fresh('pp_count') };
  }

  /** `init()`: the file's record, registered on the first call. */
  private file(): t.Expression {
    return callExpression(cloneNode(this.init), []);
  }

  /**
   * `array === void 0 ? init().counts : array`: valid before the body ran. (`record || init()` costs a
   * ToBoolean of an object and an extra load: a third of fib's run time.) `array` alone when read in `fn`, a
   * function that cannot run before the preamble.
   */
  counts(fn?: t.Node): t.Expression {
    return this.hoisted(this.array, 'counts', fn);
  }

  /** Whether `fn` (a graph's root) only runs once the preamble has: it reads the preamble's variables as they are. */
  afterPreamble(fn: t.Node): boolean {
    return this.preambleFirst || (this.early !== null && !this.early.has(fn));
  }

  /** The file's hash tables (path mode's large functions, preferential mode's residue), as `counts()` reads the array. */
  hashed(fn?: t.Node): t.Expression {
    this.usesTables = true;
    return this.hoisted(this.tables, 'hashed', fn);
  }

  /**
   * `count(path, table)`: counts a path of one of the file's hash tables through the cache in front of them.
   * Only for path numbers unique across the tables (interprocedural components).
   */
  frontCount(path: t.Expression, table: number): t.Expression {
    this.usesFront = true;
    return callExpression(cloneNode(this.front.count), [path, numericLiteral(table)]);
  }

  /** The file's calling contexts in the realm (`FileContexts`), as `counts()` reads the array. */
  contexts(): t.Expression {
    return this.hoisted(this.contextsRecord, 'contexts');
  }

  /**
   * `name === void 0 ? init().field : name`, for a `var name = init().field` of the preamble, or `name` where
   * the preamble has run whenever this code does (read in `fn`, when given).
   */
  private hoisted(name: t.Identifier, field: string, fn?: t.Node): t.Expression {
    if (this.preambleFirst || (fn && this.afterPreamble(fn))) return cloneNode(name);
    return conditionalExpression(
      binaryExpression('===', cloneNode(name), unaryExpression('void', numericLiteral(0))),
      memberExpression(this.file(), identifier(field)),
      cloneNode(name),
    );
  }

  /**
   * `var record; function init() { return record || (record = runtime.registerFile(key, hash, meta, dir, size,
   * tables)); } var array = init().counts;` (with the runtime imported, or required inside `init`), to be
   * placed at the top of the program after its directives. Large metadata goes compacted (`compactMetadata`),
   * a string the runtime only forwards. `setup` runs in the first `init()`, before the registration:
   * file-level values the counting code needs from the first activation on. Counter `variables` (edge and path mode)
   * are declared before that `var` and registered with their `take()` and slot runs.
   */
  preamble(
    args: {
      key: string;
      hash: string;
      meta: FileMetadata;
      outputDir: string;
      arraySize: number;
      hashCount: number;
      contextCount: number;
      variables?: CounterVariables | null;
    },
    runtimeImport: 'import' | 'require',
    setup: t.Statement[] = [],
  ): t.Statement[] {
    const source = stringLiteral('babel-plugin-pathprof/runtime');
    // An import binding exists before any code of the module runs; a `require` is made inside init() so that
    // a hoisted function called early still finds it.
    const runtime =
      runtimeImport === 'import' ? cloneNode(this.runtime) : callExpression(identifier('require'), [source]);
    const registerFn = memberExpression(runtime, identifier('registerFile'));
    const meta = singleQuoted(compactMetadata(args.meta));
    const variables = args.variables?.used ? args.variables : null;
    const call = callExpression(registerFn, [
      stringLiteral(args.key),
      stringLiteral(args.hash),
      meta,
      stringLiteral(args.outputDir),
      numericLiteral(args.arraySize),
      numericLiteral(args.hashCount),
      ...(args.contextCount > 0 || variables ? [numericLiteral(args.contextCount)] : []),
      ...(variables ? [cloneNode(variables.take), variables.runs()] : []),
    ]);
    const load =
      runtimeImport === 'import'
        ? [
            // A default import: some projects' own plugins (an ESM-to-CommonJS step) accept no other kind.
            importDeclaration([importDefaultSpecifier(cloneNode(this.runtime))], source),
          ]
        : [];
    return [
      ...load,
      variableDeclaration('var', [variableDeclarator(cloneNode(this.record))]),
      functionDeclaration(
        cloneNode(this.init),
        [],
        blockStatement([
          ...(setup.length
            ? [ifStatement(unaryExpression('!', cloneNode(this.record)), blockStatement(setup))]
            : []),
          returnStatement(
            logicalExpression(
              '||',
              cloneNode(this.record),
              assignmentExpression('=', cloneNode(this.record), call),
            ),
          ),
        ]),
      ),
      ...(this.usesFront
        ? [
            buildFrontCount({
              count: cloneNode(this.front.count),
              keys: cloneNode(this.front.keys),
              counts: cloneNode(this.front.counts),
              init: cloneNode(this.init),
            }),
          ]
        : []),
      ...(variables ? [variables.takeFunction(), variables.declaration()] : []),
      variableDeclaration('var', [
        variableDeclarator(cloneNode(this.array), memberExpression(this.file(), identifier('counts'))),
        ...(this.usesTables
          ? [variableDeclarator(cloneNode(this.tables), memberExpression(this.file(), identifier('hashed')))]
          : []),
        ...(this.usesFront
          ? (['keys', 'counts'] as const).map((field) =>
              variableDeclarator(
                cloneNode(this.front[field]),
                memberExpression(memberExpression(this.file(), identifier('front')), identifier(field)),
              ),
            )
          : []),
        ...(args.contextCount > 0
          ? [
              variableDeclarator(
                cloneNode(this.contextsRecord),
                memberExpression(this.file(), identifier('contexts')),
              ),
            ]
          : []),
      ]),
    ];
  }
}

/** JSON is full of double quotes: printed in single quotes it needs no escapes (`\"` would cost 2 bytes each). */
function singleQuoted(value: string): t.StringLiteral {
  const literal = stringLiteral(value);
  const raw = value.replace(/[\\'\u2028\u2029]/g, (c) =>
    c === '\\' || c === "'" ? `\\${c}` : `\\u${c.charCodeAt(0).toString(16)}`,
  );
  literal.extra = { rawValue: value, raw: `'${raw}'` };
  return literal;
}

/**
 * The functions of an ES module that can run before its body's first statement (the preamble): the hoisted
 * function declarations of the module's top level (another module of an import cycle can call them before
 * this one's body runs) and every function inside them. Anything else comes into being only as the body runs,
 * preamble first: class methods, function expressions and arrows outside those declarations, functions
 * declared in blocks (a module is strict code: no Annex B hoisting out of blocks), namespaces, fields and
 * static blocks. A function without a source position is taken to be early.
 */
export function functionsBeforePreamble(
  program: t.Program,
  functions: readonly t.Node[],
): ReadonlySet<t.Node> {
  const hoisted: t.Node[] = [];
  for (const statement of program.body) {
    const declaration =
      t.isExportNamedDeclaration(statement) || t.isExportDefaultDeclaration(statement)
        ? statement.declaration
        : statement;
    if (t.isFunctionDeclaration(declaration)) hoisted.push(declaration);
  }
  return new Set(
    functions.filter(
      (fn) =>
        fn.start == null ||
        fn.end == null ||
        hoisted.some((h) => h.start != null && h.end != null && h.start <= fn.start! && fn.end! <= h.end),
    ),
  );
}
