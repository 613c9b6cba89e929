import { buildFileCfgs, canInstrument, parseSource } from '@pathprof/cfg';
import * as runtime from '@pathprof/runtime';
import { join } from 'node:path';
import { countedPaths, resetCounts } from '../support/counted-paths';
import { instrument, virtualPath } from '../support/instrument';
import { CORPUS, type CorpusPackage } from './support/corpus-packages';
import {
  branchCounts,
  functionCounts,
  type CountsByLocation,
  type ProfiledFunction,
} from './support/coverage-from-paths';
import { instrumentWithIstanbul, istanbulCounts, type IstanbulFileCoverage } from './support/istanbul-counts';
import { PackageLoader, type Transform } from './support/package-loader';

/**
 * Real code nobody here wrote: each package's complete source (every module its entry loads) is instrumented
 * in path mode and must do exactly what the plain copy does on a workload; then the path profile's function
 * and branch counts must equal babel-plugin-istanbul's for the same workload, matched by source location.
 */
// Root devDependencies, hoisted (some packages' `exports` hide their package.json from require.resolve).
const packageDir = (name: string) => join(__dirname, '..', '..', '..', '..', 'node_modules', name);
const key = (pkg: string, file: string) => `corpus/${pkg}/${file}`;

async function run(pkg: CorpusPackage, transform: Transform, extra: Record<string, unknown> = {}) {
  const loader = new PackageLoader(packageDir(pkg.name), transform, extra);
  const result = JSON.stringify(await pkg.workload(loader.load(pkg.entry)));
  return { loader, result };
}

/** Istanbul's keys whose path-derived counts differ, or that the profile has nothing for. */
function differences(ours: CountsByLocation, theirs: CountsByLocation): string[] {
  const problems: string[] = [];
  for (const [where, counts] of theirs) {
    const mine = ours.get(where);
    // Defaults the graph keeps opaque (pattern-defaults.ts) have no decision to count.
    if (!mine && where.startsWith('default-arg')) continue;
    if (!mine) problems.push(`${where}: istanbul ${JSON.stringify(counts)}, no path-derived count`);
    // A `/* istanbul ignore next */` case leaves the switch's list shorter: no position to compare by.
    else if (mine.length !== counts.length) continue;
    else if (JSON.stringify(mine) !== JSON.stringify(counts))
      problems.push(`${where}: istanbul ${JSON.stringify(counts)}, paths ${JSON.stringify(mine)}`);
  }
  return problems;
}

describe('real npm packages, instrumented whole', () => {
  afterEach(resetCounts);

  test.each(CORPUS.map((pkg) => [pkg.name, pkg] as const))(
    '%s: same results as the plain copy; function and branch counts equal istanbul',
    async (_name, pkg) => {
      const plain = await run(pkg, (code) => code);
      resetCounts();
      const profiled = await run(pkg, (code, file) => instrument(code, key(pkg.name, file)), {
        'babel-plugin-pathprof/runtime': runtime,
      });
      expect(profiled.result).toBe(plain.result);

      const covered = await run(pkg, (code, file) =>
        instrumentWithIstanbul(code, virtualPath(key(pkg.name, file))),
      );
      expect(covered.result).toBe(plain.result);
      const coverage = (covered.loader.context as { __coverage__: Record<string, IstanbulFileCoverage> })
        .__coverage__;

      let compared = { functions: 0, branches: 0 };
      for (const [file, source] of profiled.loader.sources) {
        const { meta, numberings, paths } = countedPaths(`virtual/${key(pkg.name, file)}`);
        const ast = parseSource(source, file);
        const graphs = buildFileCfgs(ast.program, file).filter(canInstrument);
        expect(graphs.map((g) => g.name)).toEqual(meta.functions.map((fn) => fn.name));
        const functions: ProfiledFunction[] = graphs.map((graph, k) => ({
          graph,
          numbering: numberings[k],
          paths: paths[k],
        }));
        const theirs = istanbulCounts(coverage[join(process.cwd(), 'virtual', key(pkg.name, file))]);
        expect(differences(functionCounts(functions), theirs.functions)).toEqual([]);
        expect(differences(branchCounts(ast, functions), theirs.branches)).toEqual([]);
        compared = {
          functions: compared.functions + theirs.functions.size,
          branches: compared.branches + theirs.branches.size,
        };
      }
      // Guards against comparing nothing (a workload that loads no code, a coverage object keyed elsewhere).
      expect(compared.functions).toBeGreaterThan(20);
      expect(compared.branches).toBeGreaterThan(10);
    },
    120_000,
  );
});
