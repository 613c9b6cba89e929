import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildFileCfgs, formatDot, parseSource } from '@pathprof/cfg';
import { FIXTURE_DIR } from '@pathprof/testkit';

const cli = join(__dirname, '..', 'src', 'cli.ts');
const fixture = join(FIXTURE_DIR, 'switch.js');

/** Runs the `pathprof-cfg` entry point from source, as the bin shim runs the built copy. */
function run(...args: string[]) {
  const code = `require(${JSON.stringify(cli)}).main(${JSON.stringify(args)})`;
  return spawnSync(process.execPath, ['-r', join(__dirname, 'support', 'register-babel.js'), '-e', code], {
    encoding: 'utf8',
  });
}

describe('pathprof-cfg', () => {
  test('prints the graph of one named function', () => {
    const r = run(fixture, 'classify');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^# classify \(function, .*switch\.js:1\): 14 blocks, 22 edges\n/);
    expect(r.stdout).toContain('b2 -case-> b7');
    expect(r.stdout).not.toContain('# defaultFirst');
  });

  test('prints DOT', () => {
    const r = run('--dot', fixture, 'onlyDefault');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^digraph "onlyDefault" \{/);
  });

  test('names the file and the problem on bad input', () => {
    expect(run('/nonexistent/file.js').stderr).toContain('cannot read /nonexistent/file.js');
    expect(run(fixture, 'nope').stderr).toContain('has no function named nope');
    const bad = run(join(__dirname, 'support', 'syntax-error.js.txt'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/syntax-error\.js\.txt: Unexpected token \(2:0\)/);
    expect(run().stderr).toContain('usage');
  });
});

describe('formatDot', () => {
  test('has one node per block and one edge line per edge, exceptional edges dashed', () => {
    const [, g] = buildFileCfgs(parseSource('function f(a) { if (a) g(); }', 'f.js').program, 'f.js');
    const dot = formatDot(g);
    expect(dot.match(/^ {2}n\d+ \[label=/gm)).toHaveLength(g.blockCount);
    expect(dot.match(/->/g)).toHaveLength(g.edgeCount);
    expect(dot.match(/style=dashed/g)).toHaveLength(g.edgeExceptional.reduce((a, b) => a + b, 0));
  });
});
