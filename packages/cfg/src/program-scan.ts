import * as t from '@babel/types';
import { classNameOf, rootOf, type CfgRoot } from './cfg-roots';
import { isLowerableDeclaration } from './lower-pattern-targets';

// Read once: @babel/types' exports are getters, which V8 does not inline on these hot paths.
const { FLIPPED_ALIAS_KEYS, VISITOR_KEYS } = t;

/**
 * What the instrumenters need to know of a program before they rewrite it, gathered in one walk of the whole
 * file (each was a walk of its own: a fifth of the work before the graphs are built, more in a fresh process,
 * where every walker runs cold).
 */
export interface ProgramScan {
  /** Every name the file uses anywhere (identifiers, labels, JSX names): what fresh names must avoid. */
  readonly names: Set<string>;
  /** The graph roots, as `findCfgRoots` describes them. */
  readonly roots: CfgRoot[];
  /**
   * Per root, the variable declarations of its own code that lowering may split (`lowerPatternTargets`), in
   * source order; a root without any has no entry.
   */
  readonly declarations: Map<t.Node, t.VariableDeclaration[]>;
}

/** The node types that can be a graph root (`rootOf` decides), or stop a root's own code (`lowerPatternTargets`). */
const ROOT_TYPES = new Set([
  ...FLIPPED_ALIAS_KEYS.Function,
  'ClassProperty',
  'ClassPrivateProperty',
  'ClassAccessorProperty',
  'StaticBlock',
  'TSModuleBlock',
]);
const CLASS_TYPES = new Set(FLIPPED_ALIAS_KEYS.Class);

/**
 * Every function-like of a program, in source order (an outer function before the functions inside it):
 * the program itself, functions, arrows, methods (also private, getters, setters, constructors), class
 * field initializers, static blocks and TypeScript namespace bodies. Bodiless declarations (overloads,
 * `declare`, abstract members) have no graph.
 */
export function findCfgRoots(program: t.Program): CfgRoot[] {
  return scanProgram(program).roots;
}

export function scanProgram(program: t.Program): ProgramScan {
  const names = new Set<string>();
  const roots: CfgRoot[] = [{ node: program, kind: 'program', name: '<program>', depth: 0 }];
  const declarations = new Map<t.Node, t.VariableDeclaration[]>();
  /**
   * `owner`: the root whose own code `node` is in, or null (inside a class outside its roots, a bodiless
   * function, a declared namespace): where a declaration belongs for lowering.
   */
  const visit = (
    node: t.Node,
    parent: t.Node,
    className: string | null,
    depth: number,
    owner: t.Node | null,
    derived: boolean,
  ): void => {
    const type = node.type;
    let inner = depth;
    if (type === 'Identifier' || type === 'JSXIdentifier') names.add(node.name);
    else if (type === 'VariableDeclaration') {
      if (owner && isLowerableDeclaration(node, parent)) {
        const list = declarations.get(owner);
        if (list) list.push(node);
        else declarations.set(owner, [node]);
      }
    } else if (ROOT_TYPES.has(type)) {
      const root = rootOf(node, parent, className);
      if (root) {
        const derivedConstructor =
          derived && type === 'ClassMethod' && (node as t.ClassMethod).kind === 'constructor';
        roots.push(derivedConstructor ? { ...root, depth, derivedConstructor } : { ...root, depth });
        inner = depth + 1;
      }
      // A bodiless function or a declared namespace runs no code; a field that is not a root is in a class.
      owner = root ? root.node : null;
    } else if (CLASS_TYPES.has(type)) {
      className = classNameOf(node as t.Class, parent);
      derived = (node as t.Class).superClass != null;
      owner = null;
    }
    const keys = VISITOR_KEYS[type];
    if (!keys) return;
    // Indexed loops: a `for…of` not yet optimised allocates an iterator and a result per step, and this walk
    // of every node runs mostly before V8 optimises it (a fresh process's first transform).
    for (let k = 0; k < keys.length; k++) {
      const child = (node as unknown as Record<string, unknown>)[keys[k]];
      if (Array.isArray(child)) {
        for (let i = 0; i < child.length; i++) {
          const c: unknown = child[i];
          if (c && typeof c === 'object') visit(c as t.Node, node, className, inner, owner, derived);
        }
      } else if (child && typeof child === 'object') {
        visit(child as t.Node, node, className, inner, owner, derived);
      }
    }
  };
  for (const s of program.body) visit(s, program, null, 1, program, false);
  return { names, roots, declarations };
}
