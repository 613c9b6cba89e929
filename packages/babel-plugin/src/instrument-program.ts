import * as t from '@babel/types';
import type { NodePath } from '@babel/core';
import {
  buildCfg,
  canInstrument,
  correlatedConditions,
  stableConditionValues,
  findCallTargets,
  scanProgram,
  splitCallsFor,
  freshNamesAvoiding,
  lowerForDecisions,
  insertEdgeCode,
  nonThrowingCode,
  TracePlan,
  unlikelyEdges,
  type ControlFlowGraph,
  type EdgeCodePlan,
  type FreshName,
} from '@pathprof/cfg';
import { edgeProfileOps, planEdgeProfile } from '@pathprof/numbering';
import { CounterPlan, type CountingFunction } from './counter-plan';
import { GraphPlans } from './graph-plans';
import { CounterVariables } from './counter-variables';
import { FileCounters, functionsBeforePreamble } from './file-counters';
import { fingerprint } from './fingerprint';
import { ignoredRanges } from './ignore-comments';
import { edgePlanChecksum, graphMetadata, type FileMetadata, type FunctionMetadata } from './metadata';
import type { ResolvedOptions } from './options';
import { opaqueDefaultNotes, type OpaqueDefaultNote, type PathFallback } from './fallbacks';
import { planInterproceduralFile, type InterproceduralNote } from './interprocedural-mode';
import type { LoadedInterestingSet } from './interesting-set-file';
import { numberForPaths, placePathFunction, type CounterLayout } from './path-functions';
import { planPreferentialFile, type PreferentialNote } from './preferential-mode';
import { planContextFile, type ContextFile } from './context-mode';
import { ContextPlan } from './context-plan';
import { initHandlerScopes, type LaterPlugins } from './handler-scopes';
import { splitExportedDeclarations } from './split-exports';
import { compilerShells, straightLineCode, type CompilerAddedCode } from './compiler-added-code';

/** What the build says of one file (`result.metadata.pathprof`). */
export interface FileNotes {
  fallbacks: PathFallback[];
  opaqueDefaults: OpaqueDefaultNote[];
  /** Interprocedural mode: N, the split calls crossed or cut, and any fallback to path mode. */
  interprocedural?: InterproceduralNote;
  /**
   * The file's profile before anything ran (no counts), for a reader that lists files no test loaded (the
   * `all` option); absent in trace mode.
   */
  profile?: { key: string; hash: string; meta: FileMetadata };
  /** Preferential mode: the interesting set, and the functions it does not list or that changed since. */
  preferential?: PreferentialNote;
}

/** What the plugin knows of a file beyond its code and the options. */
export interface FileContext {
  /** Preferential mode: the interesting set. */
  readonly interesting?: LoadedInterestingSet | null;
  /** What we know of the plugins that walk the file after ours, if any (handler-scopes.ts, split-exports.ts). */
  readonly later?: LaterPlugins | null;
  /**
   * Code that came with an input source map (`source` is then its original, and the metadata says so): the code
   * the map does not cover, whose functions are left uninstrumented and whose statements have no decisions.
   */
  readonly added?: CompilerAddedCode | null;
  /** Code compiled from the file before Babel with no source map (the metadata says so). */
  readonly withoutMap?: boolean;
}

/**
 * Instruments one file: a graph per function-like (except ignored ones), numbered and placed per the mode,
 * code inserted on the edges, and a preamble registering the file's counters and metadata. Runs from
 * `Program` enter, before other plugins change the code. Returns the functions that needed a fallback.
 */
export function instrumentProgram(
  path: NodePath<t.Program>,
  key: string,
  source: string,
  options: ResolvedOptions,
  { interesting = null, later = null, added = null, withoutMap = false }: FileContext = {},
): FileNotes {
  const program = path.node;
  const ignored = [...ignoredRanges(program, path.parent), ...(added?.functions ?? [])];
  // One walk of the file finds its names, its graph roots and the declarations lowering splits. Fresh names
  // from the file's names, not Babel's generateUidIdentifier: that retries `_hint`, `_hint2`, … against the
  // scope chain on every call, quadratic in a file with thousands of functions (7% of lodash's transform).
  // Every name we make starts with `_pp`, a prefix no Babel helper uses.
  const scan = scanProgram(program);
  const fresh = freshNamesAvoiding(scan.names);
  // A classic script's top-level names are globals of its realm, shared with every other script loaded there
  // (a page's `<script>` elements): the names of the file's lasting state (its counters' record, the mailbox)
  // carry a digest of its key, so that the next instrumented script's do not replace them.
  const fileScoped = program.sourceType === 'script' ? taggedNames(fresh, fingerprint(key)) : fresh;
  const kept = scan.roots.filter(
    (root) =>
      !ignored.some(([s, e]) => root.node.start != null && root.node.start >= s && root.node.end! <= e),
  );
  // TypeScript's async functions below ES2017: the function holding the body is reported as the one written.
  const { shells, shellOf } = compilerShells(added ? kept.map((root) => root.node) : []);
  const rootOf = new Map(kept.map((root) => [root.node, root]));
  // A function the compiler made of the source's construct reads as the source's does (`namespace N`, `C.m`).
  const nameOf = (node: t.Node): string => added?.names.get(node) ?? rootOf.get(node)!.name;
  const roots = kept
    .filter((root) => !shells.has(root.node) && !added?.unprofiled.has(root.node))
    .map((root) => {
      const shell = shellOf.get(root.node);
      if (shell) {
        const yieldsAreAwaits = t.isFunction(root.node) && root.node.generator;
        return { ...root, name: nameOf(shell), yieldsAreAwaits };
      }
      return added?.names.has(root.node) ? { ...root, name: nameOf(root.node) } : root;
    });
  // Which calls have a statically known callee comes from Babel's scope, before anything is rewritten.
  const targets = options.mode === 'interprocedural' || options.contexts ? findCallTargets(path) : null;
  // So are the values conditions test that cannot change (path mode: the report sets infeasible paths aside).
  const stable = options.mode === 'path' ? stableConditionValues(path) : null;
  // Rewrites that let more defaults be path decisions come first (destructuring parameters, pattern targets).
  // A script's top-level `let`/`const` they split declares its hidden names in the realm too: another
  // script's same name, `var` or `let`, would make loading the second a SyntaxError.
  for (const root of roots) {
    const names = root.node === program ? fileScoped : fresh;
    lowerForDecisions(root.node, names, scan.declarations.get(root.node) ?? []);
  }
  // Calls are split for interprocedural paths only; calling contexts hand off without changing the graphs.
  const split = targets && options.mode === 'interprocedural' ? splitCallsFor(targets, roots) : undefined;
  // After lowering, as the report's `buildInstrumentedCfgs` computes it: both must build the same graphs.
  const nonThrowing = nonThrowingCode(program);
  const straightLine = added ? straightLineCode(added, split) : undefined;
  const graphs = roots
    .map((root) => {
      const graph = buildCfg(root, key, nonThrowing, { splitCalls: split, straightLine });
      const shell = shellOf.get(root.node);
      return shell && shell.loc
        ? { ...graph, range: { start: { ...shell.loc.start }, end: { ...shell.loc.end } } }
        : graph;
    })
    .filter(canInstrument);
  const modular = program.body.some((s) => t.isImportDeclaration(s) || t.isExportDeclaration(s));
  const early = modular
    ? functionsBeforePreamble(
        program,
        roots.map((root) => root.node),
      )
    : null;
  const file = new FileCounters(fileScoped, !modular, early);
  // Edge mode counts at constant indexes in module variables. A file parsed as a script may be a classic
  // script, whose top-level names are the realm's globals: its variables' names carry the file's tag then,
  // unless its extension says CommonJS (a function's scope).
  // Path mode (and interprocedural mode's functions that keep their paths to themselves) does so only where
  // the names are short (CommonJS, any file parsed as a module: Babel's default, so a user's CommonJS `.js` file
  // too): its constant-index counts are fewer (most path ends are at register indexes), and tagged names would
  // take lodash's output past half of istanbul's (bench/NOTES.md, session 17).
  const commonJs = /\.c[jt]sx?$/.test(key);
  const shortNames = commonJs || program.sourceType !== 'script';
  const variables =
    options.mode === 'edge' ||
    ((options.mode === 'path' || options.mode === 'interprocedural') && !options.contexts && shortNames)
      ? new CounterVariables(commonJs ? fresh : fileScoped)
      : null;
  const functions: FunctionMetadata[] = [];
  const fallbacks: PathFallback[] = [];
  let arraySize = 0;
  let hashCount = 0;
  let plan: EdgeCodePlan;
  let mode = options.mode;
  const interprocedural =
    targets && options.mode === 'interprocedural'
      ? planInterproceduralFile(key, graphs, targets, options, file, fileScoped)
      : null;
  let note: InterproceduralNote | undefined = interprocedural?.note;
  const preferential = interesting
    ? planPreferentialFile(key, source, graphs, interesting, options, file, fileScoped)
    : null;
  let contexts: ContextFile | null = null;
  if (targets && options.mode === 'interprocedural' && !interprocedural) {
    // No cutting brings the file within the budget: count it per function instead.
    mode = 'path';
    const fallback = `its interprocedural paths do not fit in maxPaths (${options.maxPaths}), whatever calls are cut and paths split; counted per function (path mode)`;
    note = { scheme: options.scheme, pathCount: null, sites: [], notCrossed: [], fallback };
    console.warn(`pathprof: ${key}: ${fallback}`);
  }

  if (interprocedural) {
    functions.push(...interprocedural.functions);
    arraySize = interprocedural.arraySize;
    hashCount = interprocedural.hashCount;
    // Functions that keep their paths to themselves count as path mode counts, with its folding.
    const own = interprocedural.code.ownPaths;
    plan =
      own.size > 0
        ? new GraphPlans([new CounterPlan(own, file, null, variables), interprocedural.code])
        : interprocedural.code;
  } else if (preferential) {
    functions.push(...preferential.functions);
    fallbacks.push(...preferential.fallbacks);
    arraySize = preferential.arraySize;
    hashCount = preferential.hashCount;
    plan = preferential.plan;
  } else if (mode === 'contexts') {
    contexts = planContextFile(graphs, targets!, options.maxContexts, null);
    for (const g of graphs) functions.push(graphMetadata(g));
    plan = new ContextPlan(contexts.functions, file, options.hashThreshold, null);
  } else if (mode === 'path') {
    const byGraph = new Map<ControlFlowGraph, CountingFunction>();
    // Per calling context, each context has its own counters (an array from 0, or a hash table): no layout.
    const layout: CounterLayout | null = options.contexts ? null : { arraySize, hashCount };
    const pathCounts: number[] = [];
    for (const g of graphs) {
      const numbering = numberForPaths(g, options);
      pathCounts.push(numbering.pathCount);
      const { fn, path, fallback } = placePathFunction(g, numbering, layout);
      byGraph.set(g, fn);
      if (fallback) fallbacks.push(fallback);
      const { correlated, implied } = stable
        ? correlatedConditions(g, stable)
        : { correlated: [], implied: [] };
      functions.push({
        ...graphMetadata(g),
        path,
        ...(correlated.length > 0 ? { correlated } : {}),
        ...(implied.length > 0 ? { implied } : {}),
      });
    }
    if (layout) ({ arraySize, hashCount } = layout);
    if (options.contexts) {
      contexts = planContextFile(graphs, targets!, options.maxContexts, pathCounts);
      const counters = new CounterPlan(byGraph, file, (locals) => locals.get('ctx:paths', 'pp_P'));
      plan = new ContextPlan(contexts.functions, file, options.hashThreshold, counters);
    } else plan = new CounterPlan(byGraph, file, null, variables);
  } else if (options.mode === 'edge') {
    const byGraph = new Map<ControlFlowGraph, CountingFunction>();
    for (const g of graphs) {
      // Counters on the edges predicted less taken; the report places them again from the same prediction.
      const unlikely = unlikelyEdges(g);
      const edgePlan = planEdgeProfile(g, { unlikely });
      const offset = arraySize;
      arraySize += edgePlan.counterCount;
      byGraph.set(g, { ops: edgeProfileOps(edgePlan), storage: { kind: 'array', offset } });
      functions.push({
        ...graphMetadata(g),
        edge: {
          offset,
          counterCount: edgePlan.counterCount,
          checksum: edgePlanChecksum(edgePlan),
          ...(unlikely.length > 0 ? { unlikely } : {}),
        },
      });
    }
    plan = new CounterPlan(byGraph, file, null, variables);
  } else {
    for (const g of graphs) functions.push(graphMetadata(g));
    plan = new TracePlan(graphs);
  }

  const depths = new Map(roots.map((root) => [root.node, root.depth]));
  insertEdgeCode(program, fresh, graphs, plan, fileScoped, depths);
  if (later) initHandlerScopes(later.scopes, depths.keys());
  if (mode === 'trace') {
    registerTopLevelDeclarations(path);
    return { fallbacks, opaqueDefaults: opaqueDefaultNotes(graphs) };
  }

  const meta: FileMetadata = {
    format: 'pathprof-meta/1',
    file: key,
    mode,
    maxPaths: options.maxPaths,
    hashThreshold: options.hashThreshold,
    ...(options.successorOrder === 'most-paths-last' ? {} : { successorOrder: options.successorOrder }),
    functions,
    ...(interprocedural ? { interprocedural: interprocedural.meta } : {}),
    ...(interesting ? { preferential: { interesting: interesting.file, digest: interesting.digest } } : {}),
    ...(contexts ? { contexts: contexts.meta } : {}),
    ...(added ? { compiledBefore: true as const } : {}),
    ...(withoutMap ? { compiledWithoutMap: true as const } : {}),
  };
  const runtimeImport = options.runtime === 'auto' ? runtimeLoading(modular, key) : options.runtime;
  const hash = fingerprint(source);
  const preamble = file.preamble(
    {
      key,
      hash,
      meta,
      outputDir: options.outputDir,
      arraySize,
      hashCount,
      contextCount: contexts?.values.total ?? 0,
      variables,
    },
    runtimeImport,
    preferential?.setup,
  );
  program.body.unshift(
    ...preamble,
    ...(interprocedural?.code.declarations() ?? []),
    ...(preferential?.declarations ?? []),
  );
  registerTopLevelDeclarations(path);
  if (later?.splitsExports) splitExportedDeclarations(path, later.scopes);
  if (runtimeImport === 'import') referenceRuntimeImport(path, file.init.name);
  return {
    fallbacks,
    opaqueDefaults: opaqueDefaultNotes(graphs),
    ...(note ? { interprocedural: note } : {}),
    profile: { key, hash, meta },
    ...(preferential ? { preferential: preferential.note } : {}),
  };
}

/**
 * @babel/preset-typescript deletes an import none of whose references it knows (it takes it for a type-only
 * import), and Babel does not collect references in code added after its scan: record the runtime import's
 * use inside init() (Babel knows init itself already, so registering it finds nothing new).
 */
function referenceRuntimeImport(path: NodePath<t.Program>, initName: string): void {
  const init = path.get('body').find((s) => s.isFunctionDeclaration() && s.node.id?.name === initName);
  init?.traverse({
    ReferencedIdentifier(ref) {
      const binding = path.scope.getOwnBinding(ref.node.name);
      if (binding?.kind === 'module' && !binding.referencePaths.includes(ref)) binding.reference(ref);
    },
  });
}

/**
 * How a file gets the runtime when the options leave it to us. Babel parses CommonJS as `sourceType: module`
 * by default, so the source type says little: an ES module is a `.mjs`/`.mts` file or one with `import` or
 * `export` (`modular`); anything else is CommonJS (or a script bundled later), which `require`s.
 */
function runtimeLoading(modular: boolean, key: string): 'import' | 'require' {
  if (/\.m[jt]sx?$/.test(key)) return 'import';
  if (/\.c[jt]sx?$/.test(key)) return 'require';
  return modular ? 'import' : 'require';
}

/**
 * Other plugins (TypeScript's import elision, block scoping) read the program scope's bindings, which Babel
 * computed before we added ours: register the new top-level declarations (function scopes are built
 * lazily, from the rewritten code, when traversal reaches them).
 */
function registerTopLevelDeclarations(path: NodePath<t.Program>): void {
  // Paths only for the new declarations: a path made for a function declaration builds its scope, a walk of
  // the whole function (3% of a generated program's transform when every statement had one).
  path.node.body.forEach((statement, index) => {
    if (!t.isDeclaration(statement)) return;
    const names = Object.keys(t.getBindingIdentifiers(statement));
    if (names.some((name) => !path.scope.hasOwnBinding(name)))
      path.scope.registerDeclaration(path.get(`body.${index}`) as NodePath<t.Declaration>);
  });
}

/** Fresh names with `tag` after the hint (`_pp_file_1f2e3d4c`). */
function taggedNames(fresh: FreshName, tag: string): FreshName {
  return (hint) => fresh(`${hint}_${tag}`);
}
