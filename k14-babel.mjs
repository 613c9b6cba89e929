import { transformSync } from '@babel/core';
import fs from 'node:fs';
const [file, opts] = process.argv.slice(2);
const out = transformSync(fs.readFileSync(file, 'utf8'), { filename: file, babelrc: false, configFile: false, plugins: [[fs.realpathSync('packages/babel-plugin'), JSON.parse(opts)]] });
console.log(out.code);
