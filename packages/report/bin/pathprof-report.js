#!/usr/bin/env node
require('../dist/closed-pipe').exitQuietlyWhenPipeCloses();
require('../dist/cli').main(process.argv.slice(2));
