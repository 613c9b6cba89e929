export { main } from './cli';
export { loadProfiledFiles, decodeFileProfile, type ProfiledFile, type FunctionPaths } from './profiled-file';
export { Problems } from './problems';
export {
  pathReport,
  type PathReport,
  type FileReport,
  type FunctionReport,
  type ExecutedPath,
} from './path-report';
export { decodeDecisions, formatDecision, type Decision, type PathShape } from './decisions';
export { istanbulCoverage } from './istanbul/istanbul-coverage';
export type {
  IstanbulFileCoverage,
  BranchMapping,
  FunctionMapping,
  Location,
} from './istanbul/file-coverage';
export { formatLcov } from './lcov';
export { thresholdFailures } from './thresholds';
export { diffReports, formatDiff, type FunctionDiff } from './path-diff';
