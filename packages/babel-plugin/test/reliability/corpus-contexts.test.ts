import * as runtime from '@pathprof/runtime';
import { expandMetadata, getStore, snapshot } from '@pathprof/runtime';
import { decodeFileProfile, Problems } from '@pathprof/report';
import { transformSync } from '@babel/core';
import { join } from 'node:path';
import pathprof, { ContextDecoder, type FileMetadata, type PluginOptions } from '../../src';
import { resetCounts } from '../support/counted-paths';
import { virtualPath } from '../support/instrument';
import { CORPUS, type CorpusPackage } from './support/corpus-packages';
import { PackageLoader, type Transform } from './support/package-loader';

/**
 * Real code nobody here wrote, with calling contexts on (the packages alternate between contexts alone and
 * paths per context): each package's complete source is instrumented and must do exactly what the plain copy
 * does on its workload, and every context it counted must decode; with paths per context, the paths summed over
 * the contexts must be the counts path mode gives for the same workload. The counts themselves are checked
 * against the tracer on the fixtures and generated programs; here the point is behaviour on code of every shape.
 */
const packageDir = (name: string) => join(__dirname, '..', '..', '..', '..', 'node_modules', name);
const key = (pkg: string, file: string) => `corpus/${pkg}/${file}`;

async function run(pkg: CorpusPackage, transform: Transform, extra: Record<string, unknown> = {}) {
  const loader = new PackageLoader(packageDir(pkg.name), transform, extra);
  const result = JSON.stringify(await pkg.workload(loader.load(pkg.entry)));
  return { loader, result };
}

/** The package's files through the plugin with `options`, its runtime given to them as a module. */
function instrumented(pkg: CorpusPackage, options: PluginOptions) {
  const transform: Transform = (code, file) =>
    transformSync(code, {
      filename: virtualPath(key(pkg.name, file)),
      babelrc: false,
      configFile: false,
      sourceType: 'unambiguous',
      plugins: [[pathprof, { runtime: 'require', ...options }]],
    })!.code!;
  return run(pkg, transform, { 'babel-plugin-pathprof/runtime': runtime });
}

/** Each loaded file's path counts by function, as the report reads them (paths per context: summed over them). */
function reportedPaths(pkg: CorpusPackage, loader: PackageLoader): Record<string, [string, number[][]][]> {
  const profiles = snapshot(getStore()).files;
  const out: Record<string, [string, number[][]][]> = {};
  for (const [file, source] of loader.sources) {
    const profile = profiles.find((p) => p.key === `virtual/${key(pkg.name, file)}`)!;
    const problems = new Problems();
    const decoded = decodeFileProfile(profile, virtualPath(key(pkg.name, file)), source, problems)!;
    expect(problems.messages).toEqual([]);
    out[file] = decoded.functions.map((f) => [
      f.meta.name,
      [...f.counts].filter(([, n]) => n > 0).sort((a, b) => a[0] - b[0]),
    ]);
  }
  return out;
}

describe('real npm packages with calling contexts', () => {
  afterEach(resetCounts);

  test.each(CORPUS.map((pkg, i) => [pkg.name, i % 2 === 0 ? 'contexts' : 'paths per context', pkg] as const))(
    '%s, %s: same results as the plain copy, every counted context decodes',
    async (_name, variant, pkg) => {
      const plain = (await run(pkg, (code) => code)).result;
      const options: PluginOptions =
        variant === 'contexts' ? { mode: 'contexts' } : { mode: 'path', contexts: true };
      const profiled = await instrumented(pkg, options);
      expect(profiled.result).toBe(plain);
      const files = snapshot(getStore()).files.filter((f) => f.contexts);
      const decoder = new ContextDecoder(
        files.map((f) => ({ ...f, meta: expandMetadata(f.meta) as FileMetadata })),
      );
      let calls = 0;
      let deepest = 0;
      for (const f of files) {
        for (const [stack, value, n] of f.contexts!.entries) {
          const frames = decoder.decode(f.key, f.hash, f.contexts!.stacks, stack, value);
          expect(frames.at(-1)).toMatchObject({ kind: 'function', file: f.key });
          deepest = Math.max(deepest, frames.length);
          calls += n;
        }
      }
      expect(calls).toBeGreaterThan(0);
      // A real package's own calls nest: some context is longer than the workload's call into it.
      expect(deepest).toBeGreaterThan(2);
      if (variant === 'contexts') return;
      // Paths per context summed over the contexts are path mode's counts of the same workload.
      const perContext = reportedPaths(pkg, profiled.loader);
      resetCounts();
      const paths = await instrumented(pkg, { mode: 'path' });
      expect(paths.result).toBe(plain);
      expect(perContext).toEqual(reportedPaths(pkg, paths.loader));
      expect(
        Object.values(perContext)
          .flat()
          .some(([, counts]) => counts.length > 0),
      ).toBe(true);
    },
    180_000,
  );
});
