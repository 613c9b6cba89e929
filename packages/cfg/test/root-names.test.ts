import { findCfgRoots, parseSource } from '@pathprof/cfg';

// The names the report shows and `show FILE:FUNCTION` finds: a computed key reads as written where it is a name
// or a chain of names (emittery's `[Symbol.asyncIterator]()` was `[computed]`, `[KEY]()` was `KEY`).
test('members with computed keys are named by the key as written, or [computed]', () => {
  const source = `const KEY = 'k';
class E {
  async *[Symbol.asyncIterator]() {}
  [KEY]() {}
  ['lit']() {}
  [1 + 2]() {}
  get [Symbol.toStringTag]() { return 'E'; }
  static [KEY] = () => 1;
  plain() {}
}
const o = { [KEY]: () => 1, [Symbol.iterator]() {}, a: function () {}, 7: () => 0 };
`;
  const names = findCfgRoots(parseSource(source, 'names.js').program).map((root) => root.name);
  expect(names).toEqual([
    '<program>',
    'E.[Symbol.asyncIterator]',
    'E.[KEY]',
    'E.lit',
    'E.[computed]',
    'get E.[Symbol.toStringTag]',
    'E.[KEY]',
    '[KEY]',
    'E.plain',
    '[KEY]',
    '[Symbol.iterator]',
    'a',
    '7',
  ]);
});
