import { transformSync } from '@babel/core';
import { SourceMapConsumer } from 'source-map';
import vm from 'node:vm';
import istanbul from 'babel-plugin-istanbul';
import pathprof from '../src';
import { getStore } from '@pathprof/runtime';
import { countedPaths, resetCounts, runtimeGlobals } from './support/counted-paths';
import { virtualPath } from './support/instrument';

const source = `'use strict';
type Item = { done: boolean; label?: string };
const React = { createElement: (type: string, props: object | null, ...children: unknown[]) => ({ type, props, children }) };
export function view(items: Item[]): unknown {
  const open = items.filter((i) => !i.done);
  return <ul>{open.length ? open.map((i) => <li>{i.label ?? 'untitled'}</li>) : <li>none</li>}</ul>;
}
export const count = (items: Item[]) => items.reduce((n, i) => (i.done ? n : n + 1), 0);
`;

/**
 * One Babel config with babel-plugin-istanbul, @babel/preset-env, @babel/preset-typescript and
 * @babel/preset-react, as a user's project would have: the output runs on Node 20, `'use strict'` stays
 * first, source maps point at the original lines, istanbul still counts, and path counts are still exact.
 */
describe('with istanbul and the usual presets in one config', () => {
  const result = transformSync(source, {
    filename: virtualPath('view.tsx'),
    babelrc: false,
    configFile: false,
    sourceMaps: true,
    plugins: [[pathprof, { runtime: 'require' }], istanbul],
    presets: [
      ['@babel/preset-env', { targets: { node: '20' }, modules: 'commonjs' }],
      ['@babel/preset-typescript', { isTSX: true, allExtensions: true }],
      ['@babel/preset-react', { runtime: 'classic' }],
    ],
  })!;

  test('keeps the directive first', () => {
    expect(result.code!).toMatch(/^'use strict';\n/);
  });

  test('runs, counts paths exactly, and leaves istanbul counting', () => {
    resetCounts();
    const module = { exports: {} as Record<string, (items: unknown[]) => unknown> };
    const context = vm.createContext({ ...runtimeGlobals(), module, exports: module.exports });
    vm.runInContext(result.code!, context);
    const items = [{ done: true }, { done: false, label: 'a' }, { done: false }];
    expect(JSON.stringify(module.exports.view(items))).toContain('"children":["untitled"]');
    expect(module.exports.count(items)).toBe(2);
    expect(module.exports.view([])).toMatchObject({ children: [{ children: ['none'] }] });

    const { meta, paths } = countedPaths('virtual/view.tsx');
    const byName = Object.fromEntries(meta.functions.map((f, k) => [f.name, paths[k]]));
    const total = (name: string) => byName[name].reduce((n, [, c]) => n + c, 0);
    expect(total('view')).toBe(2);
    expect(byName.view).toHaveLength(2); // the non-empty and the empty list took different paths
    expect(total('count')).toBe(1);
    // The filter, map and reduce callbacks ran 3 + 2 + 3 times.
    const callbacks = meta.functions.flatMap((f, k) => (f.name === '<anonymous>' ? paths[k] : []));
    expect(callbacks.reduce((n, [, c]) => n + c, 0)).toBe(8);
    const coverage = (context as { __coverage__?: Record<string, { f: Record<string, number> }> })
      .__coverage__;
    expect(Object.values(Object.values(coverage!)[0].f).some((n) => n > 0)).toBe(true);
    expect(Object.keys(getStore().files)).toContain('virtual/view.tsx');
  });

  test('source maps still point at the original lines', () => {
    const consumer = new SourceMapConsumer(result.map as never);
    const lines = result.code!.split('\n');
    const find = (needle: string) => {
      const line = lines.findIndex((l) => l.includes(needle));
      return consumer.originalPositionFor({ line: line + 1, column: lines[line].indexOf(needle) });
    };
    expect(find("'untitled'").line).toBe(6);
    expect(find('reduce(').line).toBe(8);
  });
});
