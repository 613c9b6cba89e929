import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import vm from 'node:vm';

/** Turns one file of a package into the code to evaluate (identity for the plain copy). */
export type Transform = (code: string, file: string) => string;

/**
 * A minimal CommonJS loader over a package directory, evaluating every module in one `vm` context: each file
 * is read, passed through `transform` (so a whole package is instrumented file by file, as `@babel/register`
 * would), and wrapped like Node wraps modules. Relative requires resolve inside the package; Node built-ins
 * and `extra` ids (the pathprof runtime) come from the host. The context gets only the globals real packages
 * read at load time and a fixed `Date.now`, so a plain and an instrumented copy start from the same state.
 */
export class PackageLoader {
  readonly context: vm.Context;
  /** The original source of every file loaded so far, by its path relative to the package. */
  readonly sources = new Map<string, string>();
  private readonly cache = new Map<string, { exports: unknown }>();
  private readonly hostRequire = createRequire(__filename);

  constructor(
    private readonly root: string,
    private readonly transform: Transform,
    private readonly extra: Record<string, unknown> = {},
    globals: Record<string, unknown> = {},
  ) {
    this.context = vm.createContext({
      process: { env: {}, argv: [], cwd: () => '/', platform: 'linux', versions: process.versions },
      TextEncoder,
      TextDecoder,
      ...globals,
    });
    // A fixed clock: lodash decides how to memoise by timing calls, which would make counts differ by run.
    vm.runInContext('Date.now = () => 1700000000000;', this.context);
  }

  /** `require` of a file of the package, relative to its root. */
  load(file: string): unknown {
    return this.requireFrom(this.root, `./${file}`);
  }

  private requireFrom(fromDir: string, id: string): unknown {
    if (id in this.extra) return this.extra[id];
    if (builtinModules.includes(id.replace(/^node:/, ''))) return this.hostRequire(id);
    if (!id.startsWith('.')) throw new Error(`corpus module ${id} is outside the package`);
    const file = resolveFile(join(fromDir, id));
    const cached = this.cache.get(file);
    if (cached) return cached.exports;
    const module = { exports: {} as unknown };
    this.cache.set(file, module);
    const name = relative(this.root, file);
    const source = readFileSync(file, 'utf8');
    this.sources.set(name, source);
    const code = this.transform(source, name);
    const wrapper = vm.runInContext(
      `(function (exports, require, module, __filename, __dirname) {${code}\n})`,
      this.context,
      { filename: file },
    ) as (e: unknown, r: (id: string) => unknown, m: unknown, f: string, d: string) => void;
    wrapper(module.exports, (next) => this.requireFrom(dirname(file), next), module, file, dirname(file));
    return module.exports;
  }
}

function resolveFile(base: string): string {
  for (const candidate of [base, `${base}.js`, `${base}.cjs`, join(base, 'index.js')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`cannot resolve ${base}`);
}
