export * from '@pathprof/runtime';
