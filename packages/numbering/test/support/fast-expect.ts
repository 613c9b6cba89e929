/**
 * `expect(actual).toEqual(expected)` for the hot loops of the property tests: compares as JSON first and calls
 * jest's matcher, with its diff, only on a mismatch (jest's matchers cost more than the checks themselves).
 */
export function expectSame(actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) expect(actual).toEqual(expected);
}
