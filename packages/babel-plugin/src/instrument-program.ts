import * as t from '@babel/types';
import type { NodePath } from '@babel/core';
import {
  buildCfg,
  canInstrument,
  findCallTargets,
  findCfgRoots,
  splitCallsFor,
  freshNamesFor,
  lowerForDecisions,
  insertEdgeCode,
  TracePlan,
  type ControlFlowGraph,
  type EdgeCodePlan,
} from '@pathprof/cfg';
import { edgeProfileOps, numberPaths, planEdgeProfile, simplifyPathOps } from '@pathprof/numbering';
import { CounterPlan, type CountingFunction } from './counter-plan';
import { FileCounters } from './file-counters';
import { fingerprint } from './fingerprint';
import { ignoredRanges } from './ignore-comments';
import {
  edgePlanChecksum,
  graphMetadata,
  numberingChecksum,
  type FileMetadata,
  type FunctionMetadata,
} from './metadata';
import type { ResolvedOptions } from './options';
import { opaqueDefaultNotes, pathFallback, type OpaqueDefaultNote, type PathFallback } from './fallbacks';
import { planInterproceduralFile, type InterproceduralNote } from './interprocedural-mode';

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
): FileNotes {
  const program = path.node;
  const ignored = ignoredRanges(program);
  // One scan of the file's names, not Babel's generateUidIdentifier: that retries `_hint`, `_hint2`, … against
  // the scope chain on every call, quadratic in a file with thousands of functions (7% of lodash's
  // transform). Every name we make starts with `_pp`, a prefix no Babel helper uses.
  const fresh = freshNamesFor(program);
  const roots = findCfgRoots(program).filter(
    (root) =>
      !ignored.some(([s, e]) => root.node.start != null && root.node.start >= s && root.node.end! <= e),
  );
  // Which calls have a statically known callee comes from Babel's scope, before anything is rewritten.
  const targets = options.mode === 'interprocedural' ? findCallTargets(path) : null;
  // Rewrites that let more defaults be path decisions come first (destructuring parameters, pattern targets).
  for (const root of roots) lowerForDecisions(root.node, fresh);
  const split = targets ? splitCallsFor(targets, roots) : undefined;
  const graphs = roots.map((root) => buildCfg(root, key, split)).filter(canInstrument);
  const file = new FileCounters(fresh);
  const functions: FunctionMetadata[] = [];
  const fallbacks: PathFallback[] = [];
  let arraySize = 0;
  let hashCount = 0;
  let plan: EdgeCodePlan;
  let mode = options.mode;
  const interprocedural = targets
    ? planInterproceduralFile(key, graphs, targets, options, file, fresh)
    : null;
  let note: InterproceduralNote | undefined = interprocedural?.note;
  if (targets && !interprocedural) {
    // No cutting brings the file within the budget: count it per function instead.
    mode = 'path';
    const fallback = `its interprocedural paths do not fit in maxPaths (${options.maxPaths}), whatever calls are cut and paths split; counted per function (path mode)`;
    note = { scheme: options.scheme, pathCount: null, sites: [], fallback };
    console.warn(`pathprof: ${key}: ${fallback}`);
  }

  if (interprocedural) {
    functions.push(...interprocedural.functions);
    arraySize = interprocedural.arraySize;
    hashCount = interprocedural.hashCount;
    plan = interprocedural.code;
  } else if (mode === 'path') {
    const byGraph = new Map<ControlFlowGraph, CountingFunction>();
    for (const g of graphs) {
      const numbering = numberPaths(g, { maxPaths: options.maxPaths, arrayThreshold: options.hashThreshold });
      const storage: CountingFunction['storage'] =
        numbering.storage.kind === 'array'
          ? { kind: 'array', offset: (arraySize += numbering.pathCount) - numbering.pathCount }
          : { kind: 'hash', slot: hashCount++ };
      byGraph.set(g, { ops: simplifyPathOps(numbering), storage });
      const fallback = pathFallback(g, numbering);
      if (fallback) fallbacks.push(fallback);
      functions.push({
        ...graphMetadata(g),
        path: { storage, pathCount: numbering.pathCount, checksum: numberingChecksum(numbering) },
      });
    }
    plan = new CounterPlan(byGraph, file);
  } else if (options.mode === 'edge') {
    const byGraph = new Map<ControlFlowGraph, CountingFunction>();
    for (const g of graphs) {
      const edgePlan = planEdgeProfile(g);
      const offset = arraySize;
      arraySize += edgePlan.counterCount;
      byGraph.set(g, { ops: edgeProfileOps(edgePlan), storage: { kind: 'array', offset } });
      functions.push({
        ...graphMetadata(g),
        edge: { offset, counterCount: edgePlan.counterCount, checksum: edgePlanChecksum(edgePlan) },
      });
    }
    plan = new CounterPlan(byGraph, file);
  } else {
    for (const g of graphs) functions.push(graphMetadata(g));
    plan = new TracePlan(graphs);
  }

  insertEdgeCode(program, fresh, graphs, plan);
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
    functions,
    ...(interprocedural ? { interprocedural: interprocedural.meta } : {}),
  };
  const runtimeImport = options.runtime === 'auto' ? runtimeLoading(program, key) : options.runtime;
  const hash = fingerprint(source);
  const preamble = file.preamble(
    {
      key,
      hash,
      meta,
      outputDir: options.outputDir,
      arraySize,
      hashCount,
    },
    runtimeImport,
  );
  program.body.unshift(...preamble, ...(interprocedural?.code.declarations() ?? []));
  registerTopLevelDeclarations(path);
  if (runtimeImport === 'import') referenceRuntimeImport(path, file.init.name);
  return {
    fallbacks,
    opaqueDefaults: opaqueDefaultNotes(graphs),
    ...(note ? { interprocedural: note } : {}),
    profile: { key, hash, meta },
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
 * `export`; anything else is CommonJS (or a script bundled later), which `require`s.
 */
function runtimeLoading(program: t.Program, key: string): 'import' | 'require' {
  if (/\.m[jt]sx?$/.test(key)) return 'import';
  if (/\.c[jt]sx?$/.test(key)) return 'require';
  const esm = program.body.some((s) => t.isImportDeclaration(s) || t.isExportDeclaration(s));
  return esm ? 'import' : 'require';
}

/**
 * Other plugins (TypeScript's import elision, block scoping) read the program scope's bindings, which Babel
 * computed before we added ours: register the new top-level declarations (function scopes are built
 * lazily, from the rewritten code, when traversal reaches them).
 */
function registerTopLevelDeclarations(path: NodePath<t.Program>): void {
  for (const statement of path.get('body')) {
    if (!statement.isDeclaration()) continue;
    const names = Object.keys(statement.getBindingIdentifiers());
    if (names.some((name) => !path.scope.hasOwnBinding(name))) path.scope.registerDeclaration(statement);
  }
}
