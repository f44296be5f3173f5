export * from './types';
export { resolveToolPath, realPathOf, isWithin, toPosixRelative, type ResolvedToolPath } from './paths';
export { BatchedFiles, DirectFiles } from './files';
export { IgnoreRules } from './ignore-rules';
export { walkFiles } from './walk';
