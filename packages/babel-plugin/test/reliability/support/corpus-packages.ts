/* eslint-disable @typescript-eslint/no-explicit-any -- workloads drive untyped library exports */

/**
 * A real npm package as the corpus test uses it: the file `require`d first (relative to the package), and a
 * workload whose result (JSON-serialisable, possibly a promise) must be the same for the plain and the
 * instrumented copy. Workloads read no clock and no randomness, so two runs of one copy agree too.
 */
export interface CorpusPackage {
  readonly name: string;
  readonly entry: string;
  /** What the package's code is like: the constructs it puts through the plugin. */
  readonly style: string;
  readonly workload: (lib: any) => unknown;
  /**
   * Statements (and lines, …) istanbul saw run that the path profile cannot tell ran: after a call in a block
   * that every run of it left by an exception (none when absent).
   */
  readonly unknownHits?: { statements: number; functions: number; branches: number; lines: number };
}

const JS_SOURCE = `
class Stack extends Array { static of2(a, b) { return [a, b]; } #secret = 1; get top() { return this.at(-1); } }
async function* lines(s) { for (const l of s.split('\\n')) { if (/^\\s*$/u.test(l)) continue; yield l; } }
const re = /(?<year>\\d{4})-(?<month>\\d{2})/gu, tpl = \`a\${1 + 2}b\${\`nested\${3}\`}\`;
label: for (let i = 0; i < 3; i++) { switch (i) { case 0: continue label; case 1: break; default: break label; } }
const o = { a: 1, ...{ b: 2 }, ['c' + 1]: 3, m() { return super.toString(); } }, n = o?.a ?? 0n;
try { throw new Error('x'); } catch { } finally { void 0; }
`;

const MARKDOWN = `# Title *with* emphasis

Some **bold**, \`code\`, [a link](https://example.com "t") and ![img](a.png).

1. first
2. second
   - nested *item*
   - [x] task

| a | b |
|---|:-:|
| 1 | 2 |

> quote with <span>html</span> & entities &amp; more

\`\`\`js
const x = 1 < 2;
\`\`\`

Setext
======

Trailing  
break and a footnote-like [ref][r].

[r]: /url
`;

export const CORPUS: readonly CorpusPackage[] = [
  {
    name: 'acorn',
    entry: 'dist/acorn.js',
    style: 'hand-written parser: prototype methods, large switches, regular expressions, Unicode tables',
    // parseMaybeAssign's backtracking throws out of toAssignable and parseParenAndDistinguishExpression: the
    // statements that called them ran, but an exception left their blocks every time.
    unknownHits: { statements: 2, functions: 0, branches: 0, lines: 1 },
    workload: (acorn) => {
      const ast = acorn.parse(JS_SOURCE, { ecmaVersion: 'latest', locations: true });
      const tokens = [...acorn.tokenizer('a = b?.c ?? /re/g.test(`t${d}`)', { ecmaVersion: 2022 })].map(
        (t: any) => t.type.label,
      );
      const errors = ['let let = 1', 'a +', 'class { }', '({a:1} = 1)', '"\\u{110000}"'].map((s) => {
        try {
          acorn.parse(s, { ecmaVersion: 2022 });
          return 'parsed';
        } catch (e: any) {
          return `${e.name}: ${e.message}`;
        }
      });
      // The `0n` literal's value is a BigInt, which JSON has no form for.
      const text = JSON.stringify(ast, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
      return { ast: text, tokens, errors };
    },
  },
  {
    name: 'marked',
    entry: 'lib/marked.umd.js',
    style: 'generated UMD bundle: classes, many regular expressions, recursive descent',
    workload: (lib) => ({
      html: lib.marked.parse(MARKDOWN, { gfm: true }),
      inline: lib.marked.parseInline('*a* __b__ ~~c~~ <b>d</b>'),
      tokens: lib.marked.lexer(MARKDOWN).map((t: any) => t.type),
    }),
  },
  {
    name: 'lodash',
    entry: 'lodash.js',
    style: 'one 17,000-line file: closures, feature detection, deep recursion, lazy sequences',
    workload: (_) => {
      const people = [
        { name: 'ann', age: 31, tags: ['a', 'b'] },
        { name: 'bob', age: 25, tags: ['b'] },
        { name: 'cy', age: 31, tags: [] },
      ];
      return {
        grouped: _.groupBy(people, 'age'),
        sorted: _.sortBy(people, ['age', 'name']).map((p: any) => p.name),
        merged: _.merge({ a: [{ b: 1 }], c: { d: 2 } }, { a: [{ e: 3 }], c: { f: null } }),
        cloned: _.isEqual(_.cloneDeep(people), people),
        chain: _.chain(_.range(1, 40))
          .filter((n: number) => n % 3 === 0)
          .map((n: number) => n * n)
          .take(5)
          .value(),
        strings: ['fooBar', 'Foo Bar!', '__foo_bar__'].map((s) => [_.camelCase(s), _.kebabCase(s)]),
        paths: [_.get({ a: [{ b: { c: 3 } }] }, 'a[0].b.c'), _.set({}, 'x.y[1].z', 5)],
        misc: [_.chunk([1, 2, 3, 4, 5], 2), _.uniqBy([2.1, 1.2, 2.3], Math.floor), _.zip([1, 2], ['a'])],
        // lodash maps functions by their `name`: instrumentation must keep every inferred name.
        names: _.functions(_).map((k: string) => _[k].name),
        realNames: Object.keys(_.prototype).length,
        template: _.template('hi <%= user %>!<% if (n) { %> n=<%- n %><% } %>')({ user: 'x', n: '<1>' }),
      };
    },
  },
  {
    name: 'semver',
    entry: 'index.js',
    style: 'many small CommonJS modules: classes, a regular-expression table, caches',
    workload: (semver) => ({
      valid: ['1.2.3', 'v1.2.3-beta.1+build', '1.2', 'x'].map((v) => semver.valid(v)),
      satisfies: [
        ['1.2.3', '^1.0.0'],
        ['2.0.0-rc.1', '>=1.0.0 <2.0.0 || 2.0.0-rc.1'],
        ['1.2.3', '~1.1 || 1.2.x'],
      ].map(([v, r]) => semver.satisfies(v, r)),
      sorted: semver.sort(['1.10.0', '1.2.0', '1.2.0-alpha', '0.9.9']),
      inc: ['major', 'minor', 'patch', 'prerelease'].map((k) => semver.inc('1.2.3-0', k)),
      coerce: semver.coerce('v3.4 is here')?.version,
      max: semver.maxSatisfying(['1.2.3', '1.3.0', '2.0.0'], '^1.2'),
      ranges: [semver.validRange('1.x || >=2.5.0 || 5.0.0 - 7.2.3'), semver.intersects('^1.2', '>1.5 <3')],
      diff: semver.diff('1.2.3', '1.3.0-pre'),
    }),
  },
  {
    name: 'yargs-parser',
    entry: 'build/index.cjs',
    style: 'compiled TypeScript: a large closure with option tables and string munging',
    workload: (parse) =>
      [
        ['--foo=bar', '-abc', '--no-color', 'pos', '--num', '42', '--', '--rest'],
        ['--arr', '1', '--arr', '2', '-x', '--dot.path', 'v', '--camel-case', 'y'],
      ].map((argv) =>
        parse(argv, {
          boolean: ['color', 'x'],
          number: ['num'],
          array: ['arr'],
          alias: { foo: ['f'] },
          configuration: { 'populate--': true },
        }),
      ),
  },
  {
    name: 'pako',
    entry: 'dist/pako.js',
    style: 'zlib port: typed arrays, bit manipulation, hot loops, big switch-based state machines',
    workload: (pako) => {
      const text = Array.from({ length: 300 }, (_, i) => `line ${i % 17} ${'ab'.repeat(i % 5)}\n`).join('');
      const deflated = pako.deflate(text, { level: 6 });
      const gzipped = pako.gzip(text, { level: 1 });
      return {
        deflated: Array.from(deflated as Uint8Array).slice(0, 64),
        size: [deflated.length, gzipped.length],
        roundTrip: pako.inflate(deflated, { to: 'string' }) === text,
        ungzip: pako.ungzip(gzipped, { to: 'string' }).length,
        raw: pako.inflateRaw(pako.deflateRaw(new Uint8Array([1, 2, 3, 3, 3, 3]))).join(','),
      };
    },
  },
  {
    name: 'moment',
    entry: 'moment.js',
    style: 'date library: prototype-heavy, format token tables, parsing with regular expressions',
    workload: (moment) => {
      const m = moment.utc('2024-02-29T13:45:10.123Z');
      return {
        formats: ['LLLL', 'YYYY-MM-DD[T]HH:mm:ss.SSS', 'dddd Do MMM gggg [W]w', 'X Q'].map((f) =>
          m.format(f),
        ),
        arithmetic: [
          m.clone().add(1, 'year').format(),
          m.clone().subtract(3, 'months').startOf('week').format(),
        ],
        diff: moment.utc('2025-01-01').diff(m, 'days', true),
        parsed: [
          moment.utc('31/12/2023 23:59', 'DD/MM/YYYY HH:mm', true).toISOString(),
          moment.utc('not a date', 'YYYY-MM-DD', true).isValid(),
        ],
        duration: moment.duration(93784, 'seconds').toISOString(),
        relative: moment.utc('2024-01-01').from(moment.utc('2024-03-01')),
      };
    },
  },
  {
    name: 'gensync',
    entry: 'index.js',
    style: "Babel's generator-driven sync/async runner: generators, promises, callbacks",
    workload: async (gensync) => {
      const double = gensync({ sync: (n: number) => n * 2, async: async (n: number) => n * 2 });
      const fail = gensync({
        sync: () => {
          throw new Error('boom');
        },
        errback: (cb: (e: Error) => void) => cb(new Error('boom async')),
      });
      const run = gensync(function* (n: number): Generator<unknown, unknown, any> {
        const a = yield* double(n);
        const both = yield* gensync.all([double(1), double(a)]);
        const first = yield* gensync.race([double(5), double(6)]);
        let message = 'no error';
        try {
          yield* fail();
        } catch (e: any) {
          message = e.message;
        }
        return [a, both, first, message];
      });
      return { sync: run.sync(3), async: await run.async(4) };
    },
  },
];
