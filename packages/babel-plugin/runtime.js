// What instrumented code imports: the runtime, resolved through the plugin package users already depend on.
module.exports = require('@pathprof/runtime');
