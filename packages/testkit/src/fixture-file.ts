import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The graph fixtures live with the package whose graphs they describe. */
export const FIXTURE_DIR = join(__dirname, '..', '..', 'cfg', 'test', 'fixtures');

/** A fixture: source (code plus calls that exercise it) and, per graph in source order, expected arrows. */
export interface Fixture {
  readonly name: string;
  readonly path: string;
  readonly source: string;
  readonly expected: Map<string, string>;
}

const EXPECTED = /\/\*expected ([^\n]*)\n([\s\S]*?)\*\/\n?/g;

export function listFixtures(): Fixture[] {
  return readdirSync(FIXTURE_DIR)
    .filter((f) => /\.(js|ts)$/.test(f))
    .sort()
    .map((f) => readFixture(join(FIXTURE_DIR, f)));
}

function readFixture(path: string): Fixture {
  const text = readFileSync(path, 'utf8');
  const expected = new Map<string, string>();
  for (const m of text.matchAll(EXPECTED)) expected.set(m[1], m[2].trimEnd());
  const source = text.replace(EXPECTED, '').trimEnd() + '\n';
  return { name: path.split('/').pop()!, path, source, expected };
}

/** Rewrites the fixture's expectations (`UPDATE=1`): the source, then one block per graph. */
export function writeExpected(fixture: Fixture, graphs: { key: string; arrows: string }[]): void {
  const blocks = graphs.map((g) => `/*expected ${g.key}\n${g.arrows}\n*/`).join('\n');
  writeFileSync(fixture.path, `${fixture.source.trimEnd()}\n\n${blocks}\n`);
}
