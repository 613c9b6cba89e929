import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A throwaway project inside the repository (so `babel-plugin-pathprof` and Babel resolve from its
 * node_modules, as in a user's project), removed by `dispose`. The plugin resolves through its built
 * `dist`: `npm test` builds before running jest.
 */
export class ScratchProject {
  readonly root: string;

  constructor(files: Record<string, string>) {
    const base = join(__dirname, '..', '..', '..', '..', 'tmp');
    mkdirSync(base, { recursive: true });
    this.root = mkdtempSync(join(base, 'project-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(this.root, name)), { recursive: true });
      writeFileSync(join(this.root, name), text);
    }
  }

  path(name: string): string {
    return join(this.root, name);
  }

  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
