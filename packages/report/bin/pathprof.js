#!/usr/bin/env node
require('../dist/run-command').main(process.argv.slice(2));
