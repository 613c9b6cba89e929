// Read once: inside a `vm` context (jest runs the plugin in one) every global lookup in the loop is slow.
const imul = Math.imul;

/** FNV-1a, 32 bits, as hex: a fingerprint of source text or of a graph, not a security hash. */
export function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
