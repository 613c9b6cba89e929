import * as runtime from '@pathprof/runtime';
import { expandMetadata, getStore } from '@pathprof/runtime';
import { transformSync } from '@babel/core';
import { join } from 'node:path';
import pathprof, { type FileMetadata, type FileNotes, type Scheme } from '../../src';
import { resetCounts } from '../support/counted-paths';
import { virtualPath } from '../support/instrument';
import { CORPUS, type CorpusPackage } from './support/corpus-packages';
import { corpusIstanbulParity } from './support/corpus-parity';
import { instrumentWithIstanbul } from './support/istanbul-instrument';
import { PackageLoader, type Transform } from './support/package-loader';

/**
 * Real code nobody here wrote, in interprocedural mode (the packages alternate between the two schemes): each
 * package's complete source is instrumented and must do exactly what the plain copy does on its workload,
 * with paths crossing calls and counted. The counts themselves are checked against the tracer on the
 * fixtures and generated programs; here the point is behaviour on code of every shape, and for two packages
 * the istanbul export of the interprocedural profile, equal to babel-plugin-istanbul's counts.
 */
const packageDir = (name: string) => join(__dirname, '..', '..', '..', '..', 'node_modules', name);
const key = (pkg: string, file: string) => `corpus/${pkg}/${file}`;

async function run(pkg: CorpusPackage, transform: Transform, extra: Record<string, unknown> = {}) {
  const loader = new PackageLoader(packageDir(pkg.name), transform, extra);
  const result = JSON.stringify(await pkg.workload(loader.load(pkg.entry)));
  return { loader, result };
}

/**
 * The packages whose istanbul export (derived from the interprocedural profile) is also checked against
 * babel-plugin-istanbul, one per scheme, cheap ones: the whole corpus agreed (16,352 statements, 1,983
 * functions, 11,790 branch arms, 14,529 lines; 45 statements and 4 arms only bounded), but took 30 s.
 */
const PARITY = new Set(['yargs-parser', 'gensync']);

describe('real npm packages in interprocedural mode', () => {
  afterEach(resetCounts);

  test.each(CORPUS.map((pkg, i) => [pkg.name, i % 2 === 0 ? 'piecewise' : 'context', pkg] as const))(
    '%s, %s scheme: same results as the plain copy, paths across calls counted',
    async (_name, scheme: Scheme, pkg) => {
      const { result: plain } = await run(pkg, (code) => code);
      const notes: FileNotes[] = [];
      const { loader, result: profiled } = await run(
        pkg,
        (code, file) => {
          const result = transformSync(code, {
            filename: virtualPath(key(pkg.name, file)),
            babelrc: false,
            configFile: false,
            sourceType: 'unambiguous',
            plugins: [[pathprof, { runtime: 'require', mode: 'interprocedural', scheme }]],
          });
          notes.push((result!.metadata as unknown as { pathprof: FileNotes }).pathprof);
          return result!.code!;
        },
        { 'babel-plugin-pathprof/runtime': runtime },
      );
      expect(profiled).toBe(plain);
      const files = Object.values(getStore().files).map(
        (r) => expandMetadata(JSON.parse(r.meta)) as FileMetadata,
      );
      const counted = Object.values(getStore().files).reduce(
        (n, r) =>
          n + r.counts.reduce((a, b) => a + b, 0) + r.hashed.reduce((a, h) => a + h.entries().length, 0),
        0,
      );
      const crossed = notes.flatMap((n) => n.interprocedural?.sites ?? []).filter((s) => s.cut === null);
      expect(files.some((f) => f.mode === 'interprocedural')).toBe(true);
      expect(crossed.length).toBeGreaterThan(0);
      expect(counted).toBeGreaterThan(0);
      if (PARITY.has(pkg.name)) {
        const covered = await run(pkg, (code, file) =>
          instrumentWithIstanbul(code, virtualPath(key(pkg.name, file))),
        );
        expect(covered.result).toBe(plain);
        const totals = corpusIstanbulParity(loader, covered.loader, (file) => key(pkg.name, file));
        expect(totals.compared.branches).toBeGreaterThan(10);
        expect(totals.unknownHits).toEqual({ statements: 0, functions: 0, branches: 0, lines: 0 });
      }
      if (process.env.PATHPROF_CORPUS_STATS) {
        const sites = notes.flatMap((n) => n.interprocedural?.sites ?? []);
        const fallbacks = notes.filter((n) => n.interprocedural?.fallback).length;
        const n = files.filter((f) => f.interprocedural).map((f) => Number(f.interprocedural!.pathCount));
        console.log(
          `${pkg.name}: ${files.length} files, ${sites.length} split calls, ${crossed.length} crossed, ` +
            `${sites.filter((s) => s.cut === 'recursive').length} recursive, ${sites.filter((s) => s.cut === 'budget').length} budget cuts, ` +
            `${fallbacks} fallbacks, largest N ${Math.max(...n)}, ${counted} counters`,
        );
      }
    },
    180_000,
  );
});
