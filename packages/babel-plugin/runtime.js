// What instrumented code imports: the runtime, resolved through the plugin package users already depend on.
// ES modules import it as a default import (some projects' own plugins accept no other kind), so this is a
// plain CommonJS object without `__esModule`: every interop (Node, Babel, TypeScript, bundlers) then takes
// the whole object as the default export.
module.exports = { ...require('@pathprof/runtime') };
