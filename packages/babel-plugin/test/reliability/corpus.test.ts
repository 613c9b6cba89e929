import * as runtime from '@pathprof/runtime';
import { join } from 'node:path';
import { resetCounts } from '../support/counted-paths';
import { instrument, virtualPath } from '../support/instrument';
import { CORPUS, type CorpusPackage } from './support/corpus-packages';
import { corpusIstanbulParity } from './support/corpus-parity';
import { instrumentWithIstanbul } from './support/istanbul-instrument';
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

describe('real npm packages, instrumented whole', () => {
  afterEach(resetCounts);

  test.each(CORPUS.map((pkg) => [pkg.name, pkg] as const))(
    '%s: same results as the plain copy; statement, function, branch and line counts equal istanbul',
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
      const totals = corpusIstanbulParity(profiled.loader, covered.loader, (file) => key(pkg.name, file));
      // Guards against comparing nothing (a workload that loads no code, a coverage object keyed elsewhere).
      expect(totals.compared.functions).toBeGreaterThan(20);
      expect(totals.compared.branches).toBeGreaterThan(10);
      // What the profile cannot tell: statements after a call in a block every run left by an exception.
      expect(totals.unknownHits).toEqual(
        pkg.unknownHits ?? { statements: 0, functions: 0, branches: 0, lines: 0 },
      );
      console.log(`${pkg.name}: ${JSON.stringify(totals)}`);
    },
    120_000,
  );
});
