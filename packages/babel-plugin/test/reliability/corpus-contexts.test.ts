import * as runtime from '@pathprof/runtime';
import { getStore, snapshot } from '@pathprof/runtime';
import { transformSync } from '@babel/core';
import { join } from 'node:path';
import pathprof, { ContextDecoder, type FileMetadata } from '../../src';
import { resetCounts } from '../support/counted-paths';
import { virtualPath } from '../support/instrument';
import { CORPUS, type CorpusPackage } from './support/corpus-packages';
import { PackageLoader, type Transform } from './support/package-loader';

/**
 * Real code nobody here wrote, with calling contexts on (the packages alternate between contexts alone and
 * paths per context): each package's complete source is instrumented and must do exactly what the plain copy
 * does on its workload, and every context it counted must decode. The counts themselves are checked against
 * the tracer on the fixtures and generated programs; here the point is behaviour on code of every shape.
 */
const packageDir = (name: string) => join(__dirname, '..', '..', '..', '..', 'node_modules', name);
const key = (pkg: string, file: string) => `corpus/${pkg}/${file}`;

async function run(pkg: CorpusPackage, transform: Transform, extra: Record<string, unknown> = {}) {
  const loader = new PackageLoader(packageDir(pkg.name), transform, extra);
  return JSON.stringify(await pkg.workload(loader.load(pkg.entry)));
}

describe('real npm packages with calling contexts', () => {
  afterEach(resetCounts);

  test.each(CORPUS.map((pkg, i) => [pkg.name, i % 2 === 0 ? 'contexts' : 'paths per context', pkg] as const))(
    '%s, %s: same results as the plain copy, every counted context decodes',
    async (_name, variant, pkg) => {
      const plain = await run(pkg, (code) => code);
      const options = variant === 'contexts' ? { mode: 'contexts' } : { mode: 'path', contexts: true };
      const profiled = await run(
        pkg,
        (code, file) =>
          transformSync(code, {
            filename: virtualPath(key(pkg.name, file)),
            babelrc: false,
            configFile: false,
            sourceType: 'unambiguous',
            plugins: [[pathprof, { runtime: 'require', ...options }]],
          })!.code!,
        { 'babel-plugin-pathprof/runtime': runtime },
      );
      expect(profiled).toBe(plain);
      const files = snapshot(getStore()).files.filter((f) => f.contexts);
      const decoder = new ContextDecoder(files.map((f) => ({ ...f, meta: f.meta as FileMetadata })));
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
    },
    180_000,
  );
});
