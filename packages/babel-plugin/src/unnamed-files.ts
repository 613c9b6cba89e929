let warned = false;

/**
 * Code given to Babel without a `filename` has no key to count it under, so it is not instrumented. A harness
 * that forgets the filename would otherwise run uninstrumented code and find no profile without knowing why:
 * stderr says so, once per process.
 */
export function warnUnnamedFile(): void {
  if (warned) return;
  warned = true;
  process.stderr.write(
    'pathprof: Babel was given code without a `filename`, so pathprof did not instrument it (counts are kept per ' +
      'file): pass `filename` in the options of transform()/transformSync(). Said once per process.\n',
  );
}
