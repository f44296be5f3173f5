export { ChangeBatchStore, countLineChanges, type ChangeBatchStoreOptions } from './store';
export { ContentsTooLargeError, UnknownIdError } from './errors';
export { summarizeBatch, summarizeChange, type BatchUpdate, type StoredBatch, type StoredChange } from './stored';
export { describeRecovered } from './apply-recovery';
export { toUnifiedDiff } from './unified-diff';
export { writeFileAtomic, readTextOrNull, deleteFileIfExists } from './atomic-write';
