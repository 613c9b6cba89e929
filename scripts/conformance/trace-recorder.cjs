// Trace mode's code reports every event to a recorder the realm must have (the oracle's tests install a
// TraceRecorder). The conformance runner only needs the traced code to run as the plain code does, so each
// realm gets a stand-in with the same methods that counts the events and keeps none (a scenario may make
// millions), defined by a script run in the realm: the vm engine runs it in each realm it makes, the
// test262-harness preprocessor puts it first in each test.
const { TraceRecorder, TRACE_GLOBAL } = require('@pathprof/cfg');

const methods = Object.getOwnPropertyNames(TraceRecorder.prototype).filter((m) => m !== 'constructor');

/** The script that installs the counting recorder; `enter` returns a fresh activation number as the real one does. */
const countingRecorderSource =
  `Object.defineProperty(globalThis, ${JSON.stringify(TRACE_GLOBAL)}, { value: { events: 0, ` +
  methods.map((m) => `${m}: function () { return ++this.events; }`).join(', ') +
  ' }, writable: true, configurable: true });';

module.exports = { countingRecorderSource, TRACE_GLOBAL };
