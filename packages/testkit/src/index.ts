export { Random, caseCount, baseSeed } from './random';
