import * as t from '@babel/types';
import type { FreshName } from '@pathprof/cfg';

/**
 * The file-level half of the instrumentation: a lazily registered record of this file's counters. A
 * hoisted `function init()` registers on first use, so a function called before the file's body ran (a
 * module cycle, a hoisted call) still counts.
 */
export class FileCounters {
  readonly record: t.Identifier;
  readonly init: t.Identifier;
  readonly register: t.Identifier;

  constructor(fresh: FreshName) {
    this.record = fresh('pp_file');
    this.init = fresh('pp_init');
    this.register = fresh('pp_register');
  }

  /** `(record || init())`: the file's record, registering it first if needed. */
  private file(): t.Expression {
    return t.logicalExpression('||', t.cloneNode(this.record), t.callExpression(t.cloneNode(this.init), []));
  }

  counts(): t.Expression {
    return t.memberExpression(this.file(), t.identifier('counts'));
  }

  hashed(): t.Expression {
    return t.memberExpression(this.file(), t.identifier('hashed'));
  }

  /**
   * `var record; function init() { return record = register(key, hash, meta, dir, size, tables); }` (with the
   * runtime imported, or required inside `init`), to be placed at the top of the program after its directives.
   */
  preamble(
    args: {
      key: string;
      hash: string;
      meta: string;
      outputDir: string;
      arraySize: number;
      hashCount: number;
    },
    runtimeImport: 'import' | 'require',
  ): t.Statement[] {
    const source = t.stringLiteral('babel-plugin-pathprof/runtime');
    // An import binding exists before any code of the module runs; a `require` is made inside init() so that
    // a hoisted function called early still finds it.
    const registerFn =
      runtimeImport === 'import'
        ? t.cloneNode(this.register)
        : t.memberExpression(
            t.callExpression(t.identifier('require'), [source]),
            t.identifier('registerFile'),
          );
    const call = t.callExpression(registerFn, [
      t.stringLiteral(args.key),
      t.stringLiteral(args.hash),
      t.stringLiteral(args.meta),
      t.stringLiteral(args.outputDir),
      t.numericLiteral(args.arraySize),
      t.numericLiteral(args.hashCount),
    ]);
    const load =
      runtimeImport === 'import'
        ? [
            t.importDeclaration(
              [t.importSpecifier(t.cloneNode(this.register), t.identifier('registerFile'))],
              source,
            ),
          ]
        : [];
    return [
      ...load,
      t.variableDeclaration('var', [t.variableDeclarator(t.cloneNode(this.record))]),
      t.functionDeclaration(
        t.cloneNode(this.init),
        [],
        t.blockStatement([t.returnStatement(t.assignmentExpression('=', t.cloneNode(this.record), call))]),
      ),
    ];
  }
}
