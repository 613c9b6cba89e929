import * as runtime from '@pathprof/runtime';
export * from '@pathprof/runtime';
export default runtime;
