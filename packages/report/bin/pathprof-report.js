#!/usr/bin/env node
require('../dist/cli').main(process.argv.slice(2));
