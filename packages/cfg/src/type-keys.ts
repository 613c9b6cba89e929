/** Keys of Babel nodes that hold type annotations (TypeScript, Flow): no code runs there. */
const TYPE_KEYS = new Set([
  'typeAnnotation',
  'typeParameters',
  'typeArguments',
  'returnType',
  'superTypeParameters',
  'superTypeArguments',
  'implements',
  'predicate',
]);

export function isTypeKey(key: string): boolean {
  return TYPE_KEYS.has(key);
}
