/**
 * A source map without its names, for stack traces through `pathprof <command>`'s hooks. source-map-support
 * (and Node's --enable-source-maps) names each frame after the identifier at its caller's call site in the
 * map (`const fp = require('./plugin'); fp()` shows `at fp`), where V8 names the function itself (`at plugin`):
 * code that reads its own stack (fastify-plugin names anonymous plugins from it) would behave differently from
 * the same files run uncompiled. Without names the frames keep V8's names and still get the sources' positions.
 */
export function withoutNames<Map extends { readonly mappings: string }>(map: Map): Map & { names: string[] } {
  return { ...map, names: [], mappings: map.mappings.replace(/[^,;]+/g, firstFourFields) };
}

/** Base64 digits whose value has the continuation bit (32): a VLQ field goes on after them. */
const CONTINUED = /[g-z0-9+/]/;

/**
 * A segment's generated column, source, line and column without the name index (its fifth field). Each field
 * is a base64 VLQ that ends at a digit without the continuation bit; the other fields' deltas do not depend
 * on the names, so dropping the fifth everywhere leaves the rest exact.
 */
function firstFourFields(segment: string): string {
  let fields = 0;
  for (let i = 0; i < segment.length; i++) {
    if (!CONTINUED.test(segment[i]) && ++fields === 4) return segment.slice(0, i + 1);
  }
  return segment;
}
