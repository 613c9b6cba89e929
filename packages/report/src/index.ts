export { main } from './cli';
export {
  loadProfiledFiles,
  decodeFileProfile,
  type ProfiledFile,
  type FunctionPaths,
  type InterproceduralPaths,
} from './profiled-file';
export { Problems } from './problems';
/** `all`: the profiles, with no counts, of the selected files no test loaded (the Vitest provider's too). */
export { countlessProfiles } from './unloaded-files';
export {
  pathReport,
  type PathReport,
  type FileReport,
  type InterproceduralFileReport,
  type FunctionReport,
  type ExecutedPath,
  type UnexecutedPath,
  type ReportOptions,
} from './path-report';
export {
  functionFigures,
  aggregateFigures,
  formatPercent,
  percentOf,
  type CoverageOptions,
  type FunctionFigures,
  type AggregateFigures,
  type PathFigures,
  type ExceptionPaths,
} from './coverage-figures';
export { exceptionOrigins } from './exception-origins';
export { decodeDecisions, formatDecision, type Decision, type PathShape } from './decisions';
export { istanbulCoverage, istanbulCoverages, type CoverageGaps } from './istanbul/istanbul-coverage';
export { writeIstanbulReports, istanbulReporters, type ReportTarget } from './istanbul/istanbul-reports';
export type {
  IstanbulFileCoverage,
  BranchMapping,
  FunctionMapping,
  Location,
} from './istanbul/file-coverage';
export { formatTextReport } from './text-report';
export { TerminalStyle } from './terminal-style';
export {
  thresholdFailures,
  checkThresholds,
  thresholdMetrics,
  type CoverageThreshold,
  type Thresholds,
} from './thresholds';
export { readReportConfig, ConfigError, type ReportConfig } from './report-config';
export { diffReports, formatDiff, type FunctionDiff } from './path-diff';
