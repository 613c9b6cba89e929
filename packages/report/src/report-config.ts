import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { thresholdMetrics, type CoverageThreshold } from './thresholds';

/** The project's report settings: the `pathprof` key of package.json, or `.pathprofrc` (JSON). */
export interface ReportConfig {
  /** Where it was read from (for messages); null when the project has none. */
  readonly source: string | null;
  /** Count implicit-exception paths in the coverage figures (see `CoverageOptions`). */
  readonly implicitExceptions: boolean;
  /** `check`'s thresholds, as jest's `coverageThreshold`: `global`, paths and globs. */
  readonly coverageThreshold: CoverageThreshold;
}

/** A configuration that cannot be used: the message names the file and the problem. */
export class ConfigError extends Error {}

/**
 * The configuration of the project in `dir`: package.json's `pathprof` key or `.pathprofrc`; both at once is
 * an error (one would be ignored silently), as is any key or value this version does not understand.
 */
export function readReportConfig(dir: string): ReportConfig {
  const found: { source: string; value: unknown }[] = [];
  const packageJson = join(dir, 'package.json');
  if (existsSync(packageJson)) {
    const pkg = parseJson(packageJson) as Record<string, unknown> | null;
    if (pkg && typeof pkg === 'object' && 'pathprof' in pkg)
      found.push({ source: `${packageJson} ("pathprof")`, value: pkg.pathprof });
  }
  const rc = join(dir, '.pathprofrc');
  if (existsSync(rc)) found.push({ source: rc, value: parseJson(rc) });
  if (found.length > 1)
    throw new ConfigError(`${found.map((f) => f.source).join(' and ')}: two configurations; keep one`);
  if (found.length === 0) return { source: null, implicitExceptions: false, coverageThreshold: {} };
  return validate(found[0].source, found[0].value);
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

function validate(source: string, value: unknown): ReportConfig {
  const fail = (problem: string): never => {
    throw new ConfigError(`${source}: ${problem}`);
  };
  if (!isObject(value)) return fail('must be an object');
  for (const key of Object.keys(value))
    if (key !== 'implicitExceptions' && key !== 'coverageThreshold')
      fail(`unknown key "${key}" (known: implicitExceptions, coverageThreshold)`);
  const implicitExceptions = value.implicitExceptions ?? false;
  if (typeof implicitExceptions !== 'boolean') fail('"implicitExceptions" must be true or false');
  const groups = value.coverageThreshold ?? {};
  if (!isObject(groups)) return fail('"coverageThreshold" must be an object of groups');
  const coverageThreshold: CoverageThreshold = {};
  for (const [group, thresholds] of Object.entries(groups)) {
    if (!isObject(thresholds)) return fail(`coverageThreshold "${group}" must be an object of metrics`);
    for (const [metric, n] of Object.entries(thresholds)) {
      if (!(thresholdMetrics as readonly string[]).includes(metric))
        fail(
          `coverageThreshold "${group}": unknown metric "${metric}" (known: ${thresholdMetrics.join(', ')})`,
        );
      if (typeof n !== 'number' || !Number.isFinite(n) || n > 100)
        fail(
          `coverageThreshold "${group}": ${metric} must be a percentage up to 100, or a negative number (most uncovered)`,
        );
    }
    coverageThreshold[group] = thresholds;
  }
  return { source, implicitExceptions: implicitExceptions as boolean, coverageThreshold };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
