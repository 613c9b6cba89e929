import { transformFileSync } from '@babel/core';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';

/**
 * The runtime's CommonJS build as one classic script, what a bundler gives a page: it defines
 * `pathprofRuntime` and the `require` that instrumented scripts (`runtime: 'require'`) call.
 */
function runtimeScript(): string {
  const dist = join(dirname(require.resolve('@pathprof/runtime/package.json')), 'dist');
  const modules = readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .map((name) => {
      const code = readFileSync(join(dist, name), 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, '');
      return `${JSON.stringify(name.slice(0, -3))}: function (module, exports, require) {\n${code}\n}`;
    });
  return `(() => {
  const modules = {${modules.join(',\n')}};
  const cache = {};
  const load = (name) => {
    const key = name.replace(/^\\.\\//, '');
    if (!cache[key]) {
      cache[key] = { exports: {} };
      modules[key](cache[key], cache[key].exports, load);
    }
    return cache[key].exports;
  };
  window.pathprofRuntime = load('index');
  window.require = (name) => {
    if (name === 'babel-plugin-pathprof/runtime') return window.pathprofRuntime;
    throw new Error('no module ' + name);
  };
})();
`;
}

/**
 * Serves an example page on 127.0.0.1: its HTML as is, its scripts under `src/` instrumented by Babel with
 * the project's babel.config.js, and the runtime script. Resolves to the server and its base URL.
 */
export function servePage(root: string): Promise<{ server: Server; url: string }> {
  const runtime = runtimeScript();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const send = (type: string, body: string) => response.writeHead(200, { 'content-type': type }).end(body);
    if (path === '/') send('text/html', readFileSync(join(root, 'index.html'), 'utf8'));
    else if (path === '/pathprof-runtime.js') send('text/javascript', runtime);
    else if (/^\/src\/[\w-]+\.js$/.test(path)) {
      send('text/javascript', transformFileSync(join(root, path), { cwd: root })!.code!);
    } else response.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` }),
    ),
  );
}
