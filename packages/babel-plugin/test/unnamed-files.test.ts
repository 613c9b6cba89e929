import { transformSync } from '@babel/core';
import { virtualPath } from './support/instrument';

const code = 'function f(x) { return x ? 1 : 2; }';

test('code without a filename is left alone and stderr says so once per process, naming pathprof and the fix', () => {
  jest.isolateModules(() => {
    // A fresh copy of the plugin: a process that has not warned yet.
    const pathprof = require('../src').default;
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const options = { babelrc: false, configFile: false, plugins: [[pathprof, { runtime: 'require' }]] };
      const unnamed = [transformSync(code, options)!.code, transformSync(code, options)!.code];
      const named = transformSync(code, { ...options, filename: virtualPath('named.js') })!.code!;
      const untouched = transformSync(code, { babelrc: false, configFile: false })!.code;
      expect(unnamed).toEqual([untouched, untouched]);
      expect(named).toContain('_pp_');
      expect(written).toEqual([
        'pathprof: Babel was given code without a `filename`, so pathprof did not instrument it (counts are kept ' +
          'per file): pass `filename` in the options of transform()/transformSync(). Said once per process.\n',
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
