import * as runtime from '@pathprof/runtime';
import { decodeFileProfile, istanbulCoverage, Problems } from '@pathprof/report';
import type { FileCoverageData } from 'istanbul-lib-coverage';
import { istanbulParity } from '../../../../report/test/support/istanbul-parity';
import { virtualPath } from '../../support/instrument';
import type { PackageLoader } from './package-loader';

type Totals = Record<'compared' | 'bounded' | 'unknownHits', Record<string, number>>;

/**
 * The istanbul coverage the report derives from the profiles of a package's files (`profiled` loaded them,
 * instrumented by pathprof, keyed `virtual/<key(file)>`) checked against babel-plugin-istanbul's for the same
 * workload (`covered`): every statement, function, branch arm and line equal, or within the profile's bounds.
 * Returns what was compared, bounded, and ran though the profile cannot tell it did.
 */
export function corpusIstanbulParity(
  profiled: PackageLoader,
  covered: PackageLoader,
  key: (file: string) => string,
): Totals {
  const coverage = (covered.context as { __coverage__: Record<string, FileCoverageData> }).__coverage__;
  const totals: Totals = { compared: {}, bounded: {}, unknownHits: {} };
  const profiles = runtime.snapshot(runtime.getStore()).files;
  for (const [file, source] of profiled.sources) {
    const path = virtualPath(key(file));
    const profile = profiles.find((p) => p.key === `virtual/${key(file)}`)!;
    const problems = new Problems();
    const decoded = decodeFileProfile(profile, path, source, problems);
    expect(problems.messages).toEqual([]);
    const derived = istanbulCoverage(decoded!);
    expect(derived.gaps.branchesLeftOut).toBe(0);
    const parity = istanbulParity(derived, coverage[path]);
    expect({ file, differences: parity.differences }).toEqual({ file, differences: [] });
    for (const part of ['compared', 'bounded', 'unknownHits'] as const)
      for (const [kind, n] of Object.entries(parity[part]))
        totals[part][kind] = (totals[part][kind] ?? 0) + n;
  }
  return totals;
}
