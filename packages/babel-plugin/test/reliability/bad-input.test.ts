import { transformSync } from '@babel/core';
import pathprof from '../../src';
import { virtualPath } from '../support/instrument';

/** What Babel does with `code` under a config, as the user sees it: the output, or the error's message and code. */
function babel(code: string, plugins: unknown[]): { code?: string; error?: string } {
  try {
    const result = transformSync(code, {
      filename: virtualPath('bad.js'),
      babelrc: false,
      configFile: false,
      plugins: plugins as never,
    });
    return { code: result!.code! };
  } catch (e) {
    const error = e as Error & { code?: string };
    return { error: `${error.code}: ${error.message}` };
  }
}

describe('bad input', () => {
  test.each([
    ['an unterminated block', 'function f() { if (x) {'],
    ['a reserved word', 'let let = 1;'],
    ['a duplicate parameter in strict code', '"use strict"; function f(a, a) {}'],
    ['a stray token', 'a +* b;'],
    ['TypeScript in a .js file', 'let x: number = 1;'],
  ])('a syntax error (%s) reaches the user exactly as Babel reports it', (_what, code) => {
    const plain = babel(code, []);
    expect(plain.error).toMatch(/^BABEL_PARSE_ERROR: /);
    expect(babel(code, [[pathprof, { runtime: 'require' }]])).toEqual(plain);
  });

  test.each([
    [{ maxPaths: Infinity }, '"maxPaths" must be a positive integer, not null'],
    [{ hashThreshold: '10' }, '"hashThreshold" must be a positive integer, not "10"'],
    [{ maxPaths: 2 ** 60 }, '"maxPaths" must be a positive integer, not 1152921504606847000'],
    [{ include: [1] }, '"include" must be an array of glob strings'],
    [{ outputDir: 42 }, '"outputDir" must be a non-empty string'],
  ])('invalid options %j fail the build naming the option', (options, message) => {
    expect(babel('f();', [[pathprof, options]]).error).toContain(
      `babel-plugin-pathprof: invalid options: ${message}`,
    );
  });

  test('options that are not an object are refused by Babel itself, naming the plugin entry', () => {
    for (const options of ['edge', ['edge']]) {
      expect(babel('f();', [[pathprof, options]]).error).toContain(
        '.plugins[0][1] must be an object, false, or undefined',
      );
    }
  });
});
