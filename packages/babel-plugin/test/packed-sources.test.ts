import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const repository = join(__dirname, '..', '..', '..');
const built = readdirSync(join(repository, 'packages', 'runtime')).includes('dist');

/**
 * What an installed package's source maps and declaration maps name is in its tarball: a stack trace through
 * pathprof (an invalid option fails the build) and an editor's "go to definition" lead to a file the user has.
 */
(built ? test : test.skip)("every source a published package's maps name is packed with it", () => {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--workspaces'], {
    cwd: repository,
    encoding: 'utf8',
  });
  expect(pack.status).toBe(0);
  const packages = JSON.parse(pack.stdout) as { name: string; files: { path: string }[] }[];
  // Each workspace's directory and whether it is published, by package name.
  const workspaces = new Map(
    readdirSync(join(repository, 'packages')).map((dir) => {
      const manifest = JSON.parse(
        readFileSync(join(repository, 'packages', dir, 'package.json'), 'utf8'),
      ) as { name: string; private?: boolean };
      return [manifest.name, { dir: join(repository, 'packages', dir), published: !manifest.private }];
    }),
  );
  const missing: string[] = [];
  for (const { name, files } of packages) {
    const { dir, published } = workspaces.get(name)!;
    if (!published) continue;
    const packed = new Set(files.map((f) => f.path));
    for (const map of [...packed].filter((path) => path.endsWith('.map'))) {
      const { sources } = JSON.parse(readFileSync(join(dir, map), 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const path = posix.normalize(posix.join(posix.dirname(map), source));
        if (!packed.has(path)) missing.push(`${name}: ${map} names ${path}`);
      }
    }
  }
  expect(missing).toEqual([]);
});
