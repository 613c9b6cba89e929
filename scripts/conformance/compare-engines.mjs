#!/usr/bin/env node
// Checks the vm engine against test262-harness: `node scripts/conformance/compare-engines.mjs --out DIR`, where
// DIR holds both engines' cached plain outcomes (run.mjs --engine vm and --engine harness with the same --out,
// on the same checkout). Lists every scenario both ran whose plain outcome differs, grouped by the first words
// of the failing engine's message, so each disagreement can be justified (README, "test262").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { out: { type: 'string' }, verbose: { type: 'boolean' } } });
if (!values.out) {
  console.error('usage: node scripts/conformance/compare-engines.mjs --out DIR [--verbose]');
  process.exit(2);
}
const load = (name) => {
  const file = join(values.out, name);
  if (!existsSync(file)) {
    console.error(`compare-engines: no ${file}: run run.mjs with that engine and this --out first`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
};
const harness = load(`plain-${process.version}.json`);
const vm = load(`plain-vm-${process.version}.json`);

let scenarios = 0;
let same = 0;
let unsupported = 0;
const groups = new Map();
for (const [key, byScenario] of Object.entries(harness)) {
  const other = vm[key];
  if (!other) continue;
  for (const [scenario, h] of Object.entries(byScenario)) {
    const v = other[scenario];
    if (!v) continue;
    scenarios++;
    if (v.unsupported) {
      unsupported++;
      continue;
    }
    if (v.pass === h.pass) {
      same++;
      continue;
    }
    const message = (v.pass ? h.message : v.message) || '(no message)';
    const group = `${v.pass ? 'vm passes, harness fails' : 'vm fails, harness passes'}: ${message.slice(0, 60)}`;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(`${key.split('@')[0]} (${scenario})`);
  }
}
console.log(
  `${scenarios} scenarios run by both engines: ${same} same plain outcome, ${unsupported} unsupported by the vm ` +
    `engine, ${scenarios - same - unsupported} different`,
);
for (const [group, list] of [...groups].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`  ${list.length} × ${group}`);
  for (const s of values.verbose ? list : list.slice(0, 3)) console.log(`      ${s}`);
}
