export { ChangeBatchStore } from './store';
export { summarizeBatch, type StoredBatch, type StoredChange } from './stored';
export { describeRecovered } from './apply-recovery';
export { toUnifiedDiff } from './unified-diff';
