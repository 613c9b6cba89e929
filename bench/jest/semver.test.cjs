// semver's own functions under test, each test repeated BENCH_ITERATIONS times over generated versions and
// ranges so that the suite is CPU-bound rather than dominated by jest's start-up.
const { join } = require('node:path');
const { expect, test } = require('@jest/globals');

const semver = require(join(process.env.BENCH_LIB, 'semver'));
const iterations = Number(process.env.BENCH_ITERATIONS);

// A fixed linear congruential generator: the same cases in every run and every mode.
let seed = 7;
const random = (n) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
const pre = ['', '-alpha.1', '-beta.2', '-rc.0', '-0.3.7', '+build.5'];
const versions = Array.from(
  { length: 400 },
  () => `${random(4)}.${random(12)}.${random(20)}${pre[random(pre.length)]}`,
);
const ranges = Array.from({ length: 60 }, () => {
  const [a, b] = [versions[random(versions.length)], versions[random(versions.length)]];
  return [`^${a}`, `~${a}`, `>=${a} <${b}`, `${a} - ${b}`, `${a} || ^${b}`, `${random(3)}.x`][random(6)];
});

test('parses, compares and sorts', () => {
  for (let i = 0; i < iterations; i++) {
    const valid = versions.filter((v) => semver.valid(v));
    expect(valid).toHaveLength(versions.length);
    const sorted = semver.sort([...valid]);
    for (let k = 1; k < sorted.length; k++) expect(semver.lte(sorted[k - 1], sorted[k])).toBe(true);
    expect(semver.rsort([...valid])[0]).toBe(sorted[sorted.length - 1]);
  }
});

test('satisfies ranges', () => {
  for (let i = 0; i < iterations; i++) {
    for (const range of ranges) {
      const matching = versions.filter((v) => semver.satisfies(v, range));
      const max = semver.maxSatisfying(versions, range);
      expect(max === null ? matching.length === 0 : matching.includes(max)).toBe(true);
    }
  }
});

test('increments, diffs and coerces', () => {
  for (let i = 0; i < iterations; i++) {
    for (const v of versions) {
      const next = semver.inc(v, 'minor');
      expect(semver.gt(next, v)).toBe(true);
      expect(semver.diff(v, next)).not.toBeNull();
      expect(semver.coerce(`v${v} release`)).not.toBeNull();
    }
  }
});

test('intersects and simplifies ranges', () => {
  for (let i = 0; i < iterations; i++) {
    for (let k = 1; k < ranges.length; k++) {
      const both = semver.intersects(ranges[k - 1], ranges[k]);
      expect(typeof both).toBe('boolean');
      expect(semver.subset(ranges[k], ranges[k])).toBe(true);
      expect(semver.validRange(semver.simplifyRange(versions, ranges[k]))).not.toBeNull();
    }
  }
});
