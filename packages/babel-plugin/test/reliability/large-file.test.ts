import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as runtime from '@pathprof/runtime';
import { countedPaths, resetCounts } from '../support/counted-paths';
import { instrument } from '../support/instrument';
import { PackageLoader } from './support/package-loader';

/**
 * A 9 MB file: TypeScript's own compiler (node_modules/typescript/lib/typescript.js, ~200,000 lines). It takes
 * minutes and gigabytes, so it runs only with `PATHPROF_LARGE=1` (and a larger heap):
 * `PATHPROF_LARGE=1 NODE_OPTIONS=--max-old-space-size=6144 npx jest large-file`. The instrumented compiler
 * must compile a program exactly as the plain one does, and its profile must be decodable.
 */
const large = process.env.PATHPROF_LARGE === '1';
const FILE = 'lib/typescript.js';
const PROGRAM = `enum E { A, B = A + 2 }
export abstract class Shape<T extends object = {}> { abstract area(): number; static of(x?: number) { return x ?? 0; } }
export const f = async function* (xs: readonly number[]) { for (const x of xs) if (x satisfies number) yield x; };
let bad: string = 1;`;

function compileWith(transform: (code: string, file: string) => string) {
  const loader = new PackageLoader(
    join(__dirname, '..', '..', '..', '..', 'node_modules', 'typescript'),
    transform,
    { 'babel-plugin-pathprof/runtime': runtime },
  );
  const ts = loader.load(FILE) as {
    transpileModule(code: string, options: object): { outputText: string; diagnostics: unknown[] };
  };
  const out = ts.transpileModule(PROGRAM, {
    compilerOptions: { target: 99, module: 1 },
    reportDiagnostics: true,
  });
  return JSON.stringify([out.outputText, out.diagnostics.length]);
}

(large ? test : test.skip)(
  'typescript.js (9 MB) instruments in bounded time and memory, then compiles like the plain copy',
  () => {
    const source = readFileSync(
      join(__dirname, '..', '..', '..', '..', 'node_modules', 'typescript', FILE),
      'utf8',
    );
    expect(source.length).toBeGreaterThan(8_000_000);
    let seconds = 0;
    const transform = (code: string, file: string) => {
      const started = Date.now();
      const out = instrument(code, `large/${file}`);
      seconds = (Date.now() - started) / 1000;
      return out;
    };
    const plain = compileWith((code) => code);
    resetCounts();
    const profiled = compileWith(transform);
    const rssGB = process.memoryUsage().rss / 2 ** 30;
    console.log(`typescript.js: instrumented in ${seconds.toFixed(0)} s, rss ${rssGB.toFixed(2)} GB`);
    expect(profiled).toBe(plain);
    const { meta, paths } = countedPaths(`virtual/large/${FILE}`);
    expect(meta.functions.length).toBeGreaterThan(10_000);
    expect(paths.filter((p) => p.length > 0).length).toBeGreaterThan(1_000);
    expect(seconds).toBeLessThan(900);
    expect(rssGB).toBeLessThan(6);
  },
  1_800_000,
);
