import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository README's set-up, literally: the install command and the first fenced `js` block whose first
 * line names the file it is (`// babel.config.js: …`), by file name; `variants` has every such block, in order
 * (later ones show variations: calling contexts, interprocedural mode). End-to-end tests write these files as
 * they are, so the README cannot drift from what is tested.
 */
export function readmeSetup(): {
  install: string;
  files: Record<string, string>;
  variants: Record<string, string[]>;
} {
  const readme = readFileSync(join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const variants: Record<string, string[]> = {};
  let install: string | undefined;
  for (const [, lang, body] of readme.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    const named = /^\/\/ ([\w.-]+\.(?:c?js|json|mjs))\b/.exec(body);
    if (lang === 'js' && named) (variants[named[1]] ??= []).push(body);
    if (lang === 'sh') install ??= /^npm install --save-dev .*$/m.exec(body)?.[0];
  }
  if (!install) throw new Error('README.md has no `npm install --save-dev …` command');
  const files = Object.fromEntries(Object.entries(variants).map(([name, [first]]) => [name, first]));
  return { install, files, variants };
}
