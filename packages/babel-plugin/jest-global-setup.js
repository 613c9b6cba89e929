// A jest global setup that starts a new pathprof run, as jest replaces its coverage directory:
// `globalSetup: 'babel-plugin-pathprof/jest-global-setup'`. The profiles of earlier runs in the profile
// directory (PATHPROF_DIR, else .pathprof) are removed; PATHPROF_ACCUMULATE=1 adds to the current run
// instead (jest after mocha, CI shards sharing one directory). A project with a global setup of its own
// calls `require('babel-plugin-pathprof/jest-global-setup')()` from it.
const { startRun } = require('@pathprof/runtime');

module.exports = function pathprofGlobalSetup() {
  startRun();
};
