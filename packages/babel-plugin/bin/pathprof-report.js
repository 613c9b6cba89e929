#!/usr/bin/env node
// The report CLI, from the one package users install (`npm install -D babel-plugin-pathprof`): see @pathprof/report.
require('@pathprof/report/bin/pathprof-report.js');
