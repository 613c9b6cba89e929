// marked rendering one large markdown document (the READMEs of the installed packages, concatenated in name
// order) to HTML BENCH_ITERATIONS times.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../tools.mjs';

const { marked } = await import(join(process.env.BENCH_LIB, 'marked/lib/marked.esm.js'));
const modules = join(ROOT, 'node_modules');
const readmes = readdirSync(modules)
  .sort()
  .map((name) => join(modules, name, 'README.md'))
  .filter((file) => existsSync(file));
const document = readmes.map((file) => readFileSync(file, 'utf8')).join('\n\n');
let html = 0;
for (let i = 0; i < Number(process.env.BENCH_ITERATIONS); i++) html += marked.parse(document).length;
console.log(`markdown ${document.length} chars from ${readmes.length} READMEs, html ${html}`);
