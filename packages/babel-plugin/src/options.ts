import { closestWord } from '@pathprof/runtime';
import picomatch from 'picomatch';
import { DEFAULT_EXCLUDE } from './default-exclude';

/**
 * How the plugin instruments: Ball-Larus path counts, Melski-Reps interprocedural path counts, preferential
 * path counts (Vaswani, Nori & Chilimbi: an interesting set in compact arrays, every other path residual),
 * calling contexts only, optimal edge counts, or the edge-tracing oracle.
 */
export type Mode = 'path' | 'interprocedural' | 'preferential' | 'contexts' | 'edge' | 'trace';

/** The order in which a block's out-edges take path numbers (see `@pathprof/numbering`, `SuccessorOrder`). */
export type SuccessorOrder = 'most-paths-last' | 'edge-id';

/** Interprocedural paths: `piecewise` (paths partition the run; hot paths) or `context` (a context prefix, then the active suffix). */
export type Scheme = 'piecewise' | 'context';

/** The options users give in `babel.config.js`: `plugins: [['pathprof', { … }]]`. */
export interface PluginOptions {
  mode?: Mode;
  /** With `mode: 'interprocedural'`: which paths are counted; default `piecewise`. */
  scheme?: Scheme;
  /**
   * With `mode: 'preferential'` (and only then, where it is required): the interesting-set file
   * (`pathprof-report prefer` writes it), relative to Babel's working directory.
   */
  interesting?: string;
  /** Globs (relative to the working directory) of files to instrument; default every file. */
  include?: string[];
  /** Globs of files never to instrument; replaces `DEFAULT_EXCLUDE` (istanbul's defaults, `node_modules`, specs). */
  exclude?: string[];
  /** Functions with more potential paths than this count into a hash table instead of an array. */
  hashThreshold?: number;
  /**
   * The most paths a function may have; above it edges are cut like backedges (reported per function). In
   * interprocedural mode, the most a file's path numbers may reach: crossed calls are cut until they fit.
   */
  maxPaths?: number;
  /**
   * Count calling contexts (Sumner et al.'s precise calling-context encoding): with `mode: 'path'`, each
   * function's paths per calling context; `mode: 'contexts'` counts only the contexts (and sets this).
   */
  contexts?: boolean;
  /** The most context values a file may use; above it calls are encoded by pushing instead (default 2^20). */
  maxContexts?: number;
  /** Where profiles are written, unless `PATHPROF_DIR` is set when the program runs. */
  outputDir?: string;
  /** How instrumented code loads the runtime: `import`, `require`, or `auto` (by the file's source type). */
  runtime?: 'auto' | 'import' | 'require';
  /** The report also lists the selected files no test loaded, with zero counts (nyc's `--all`). */
  all?: boolean;
  /**
   * Path and preferential modes: how a block's out-edges are ordered when numbering (default
   * `most-paths-last`); `edge-id` numbers in the graph's edge order, as papers' figures do (tests reproduce them).
   */
  successorOrder?: SuccessorOrder;
}

export interface ResolvedOptions {
  readonly mode: Mode;
  readonly scheme: Scheme;
  /** Preferential mode: the interesting-set file as given (resolved against each file's Babel cwd). */
  readonly interesting: string | null;
  /** Calling contexts are counted (`mode: 'contexts'`, or `contexts: true` with `mode: 'path'`). */
  readonly contexts: boolean;
  readonly maxContexts: number;
  readonly selects: (relativePath: string) => boolean;
  readonly hashThreshold: number;
  readonly maxPaths: number;
  readonly outputDir: string;
  readonly runtime: 'auto' | 'import' | 'require';
  readonly all: boolean;
  readonly successorOrder: SuccessorOrder;
}

const KNOWN = [
  'mode',
  'scheme',
  'interesting',
  'contexts',
  'include',
  'exclude',
  'hashThreshold',
  'maxPaths',
  'maxContexts',
  'outputDir',
  'runtime',
  'all',
  'successorOrder',
];
const MODES: readonly Mode[] = ['path', 'interprocedural', 'preferential', 'contexts', 'edge', 'trace'];

/** Checks the options once per Babel configuration; an error names the option and what was expected. */
export function resolveOptions(raw: unknown): ResolvedOptions {
  const fail = (problem: string): never => {
    throw new Error(`babel-plugin-pathprof: invalid options: ${problem}`);
  };
  const options = (raw ?? {}) as Record<string, unknown>;
  if (typeof options !== 'object' || Array.isArray(options)) fail('expected an object');
  for (const key of Object.keys(options)) {
    if (KNOWN.includes(key)) continue;
    const meant = closestWord(key, KNOWN);
    fail(`unknown option "${key}"${meant ? ` (did you mean "${meant}"?)` : ''}; known: ${KNOWN.join(', ')}`);
  }
  const mode = options.mode ?? 'path';
  if (!MODES.includes(mode as Mode)) {
    fail(
      `"mode" must be "path", "interprocedural", "preferential", "contexts", "edge" or "trace", not ${JSON.stringify(mode)}`,
    );
  }
  const contexts = options.contexts ?? mode === 'contexts';
  if (typeof contexts !== 'boolean')
    fail(`"contexts" must be true or false, not ${JSON.stringify(contexts)}`);
  if (contexts && mode !== 'path' && mode !== 'contexts') {
    fail(`"contexts" applies to modes "path" and "contexts" only (the mode is ${JSON.stringify(mode)})`);
  }
  if (mode === 'contexts' && !contexts) fail('mode "contexts" counts contexts: "contexts" cannot be false');
  const scheme = options.scheme ?? 'piecewise';
  if (options.scheme !== undefined && mode !== 'interprocedural') {
    fail(`"scheme" applies to mode "interprocedural" only (the mode is ${JSON.stringify(mode)})`);
  }
  if (scheme !== 'piecewise' && scheme !== 'context') {
    fail(`"scheme" must be "piecewise" or "context", not ${JSON.stringify(scheme)}`);
  }
  const interesting = options.interesting ?? null;
  if (mode === 'preferential' && interesting === null) {
    fail(
      'mode "preferential" needs "interesting": the interesting-set file (pathprof-report prefer writes it)',
    );
  }
  if (interesting !== null && mode !== 'preferential') {
    fail(`"interesting" applies to mode "preferential" only (the mode is ${JSON.stringify(mode)})`);
  }
  if (interesting !== null && (typeof interesting !== 'string' || interesting === '')) {
    fail(`"interesting" must be the path of an interesting-set file, not ${JSON.stringify(interesting)}`);
  }
  const successorOrder = options.successorOrder ?? 'most-paths-last';
  if (successorOrder !== 'most-paths-last' && successorOrder !== 'edge-id') {
    fail(`"successorOrder" must be "most-paths-last" or "edge-id", not ${JSON.stringify(successorOrder)}`);
  }
  if (options.successorOrder !== undefined && mode !== 'path' && mode !== 'preferential') {
    fail(
      `"successorOrder" applies to modes "path" and "preferential" only (the mode is ${JSON.stringify(mode)})`,
    );
  }
  const globs = (name: string, fallback: string[]): string[] => {
    const value = options[name] ?? fallback;
    if (!Array.isArray(value) || !value.every((g) => typeof g === 'string' && g !== '')) {
      fail(`"${name}" must be an array of glob strings`);
    }
    return value as string[];
  };
  const positive = (name: string, fallback: number): number => {
    const value = options[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      fail(`"${name}" must be a positive integer, not ${JSON.stringify(value)}`);
    }
    return value as number;
  };
  const include = globs('include', ['**']);
  const exclude = globs('exclude', [...DEFAULT_EXCLUDE]);
  const isIncluded = picomatch(include, { dot: true });
  const isExcluded = picomatch(exclude, { dot: true });
  const outputDir = options.outputDir ?? '.pathprof';
  if (typeof outputDir !== 'string' || outputDir === '') fail('"outputDir" must be a non-empty string');
  const runtime = options.runtime ?? 'auto';
  if (runtime !== 'auto' && runtime !== 'import' && runtime !== 'require') {
    fail(`"runtime" must be "auto", "import" or "require", not ${JSON.stringify(runtime)}`);
  }
  const all = options.all ?? false;
  if (typeof all !== 'boolean') fail(`"all" must be true or false, not ${JSON.stringify(all)}`);
  return {
    mode: mode as Mode,
    scheme: scheme as Scheme,
    interesting: interesting as string | null,
    contexts: contexts as boolean,
    maxContexts: positive('maxContexts', 2 ** 20),
    selects: (file) => isIncluded(file) && !isExcluded(file),
    hashThreshold: positive('hashThreshold', 4096),
    maxPaths: positive('maxPaths', 2 ** 30),
    outputDir: outputDir as string,
    runtime: runtime as ResolvedOptions['runtime'],
    all: all as boolean,
    successorOrder: successorOrder as SuccessorOrder,
  };
}
