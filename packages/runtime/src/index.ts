export { HashCounter } from './hash-counter';
export { HASH_FRONT_SLOTS, HashFront } from './hash-front';
export { getStore, STORE_GLOBAL, type FileRecord, type PathprofStore } from './store';
export { registerFile } from './register-file';
export { flushCounts, VariableCounts, type TakeVariables } from './variable-counts';
export {
  ContextState,
  DEFAULT_MAX_STACKS,
  FRAME_CHECKS,
  FRAME_ENTERS,
  FRAME_TAKES,
  type FileContexts,
} from './context-state';
export { ContextStacks, ROOT_STACK } from './context-stack';
export type { PathCounter } from './path-counter';
export { contextCounts } from './context-profile';
export {
  CONTEXTS_PROFILE_FORMAT,
  INTERPROCEDURAL_PROFILE_FORMAT,
  PROFILE_FORMAT,
  ProfileError,
  profileFormatOf,
  validateProfile,
  type ContextCounts,
  type FileProfile,
  type Profile,
  type StackRecord,
} from './profile-format';
export { snapshot } from './snapshot';
export { isMetadataFile } from './shared-metadata';
export { takeCounts, writeProfileFile, writeProfiles, writeProfilesAtExit } from './write-profiles';
export {
  ACCUMULATE_ENV,
  currentRun,
  DEFAULT_PROFILE_DIR,
  profileDirectory,
  RUN_ENV,
  RUN_FILE,
  startRun,
} from './run';
export { readEachProfile, readPackedProfile, readProfile, readProfileDirectory } from './read-profiles';
export { isPacked, type PackedPairs, type PairList } from './packed-pairs';
export {
  mergeProfiles,
  mergeProfileCounts,
  ProfileMerge,
  type CountTables,
  type FileTestRun,
  type MergedFileCounts,
  type MergedFileProfile,
  type TestContexts,
  type TestRunCounts,
} from './profile-merge';
export { countPairs, CountSum, type CountColumns } from './count-sum';
export {
  attributeTests,
  circusTestName,
  testStarted,
  testEnded,
  type TestName,
  type TestCounts,
  type FileTestCounts,
  type TestAttribution,
} from './test-attribution';
export { COMPACT_METADATA_FORMAT, compactMetadata, expandMetadata } from './compact-metadata';
export { closestWord, closestWords } from './closest-word';
