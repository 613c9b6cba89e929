#!/usr/bin/env node
require('../dist/closed-pipe').exitQuietlyWhenPipeCloses();
require('../dist/run-command').main(process.argv.slice(2));
