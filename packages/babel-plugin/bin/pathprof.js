#!/usr/bin/env node
// `npx pathprof <command…>`, from the package users install (`npm install -D babel-plugin-pathprof`): see @pathprof/report.
require('@pathprof/report/bin/pathprof.js');
