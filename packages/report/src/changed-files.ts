import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The files a branch changed since it left `base` (`git diff --name-only base...HEAD`), as absolute paths;
 * an error message when git cannot tell (not a repository, `base` not fetched).
 */
export function changedFiles(base: string, cwd: string): { files: Set<string> } | { error: string } {
  const git = (args: string[]) => spawnSync('git', args, { cwd, encoding: 'utf8' });
  const top = git(['rev-parse', '--show-toplevel']);
  if (top.status !== 0) return { error: `git rev-parse: ${(top.stderr || String(top.error)).trim()}` };
  const diff = git(['diff', '--name-only', `${base}...HEAD`]);
  if (diff.status !== 0)
    return { error: `git diff ${base}...HEAD: ${(diff.stderr || String(diff.error)).trim()}` };
  const root = top.stdout.trim();
  return {
    files: new Set(
      diff.stdout
        .split('\n')
        .filter(Boolean)
        .map((name) => resolve(root, name)),
    ),
  };
}
