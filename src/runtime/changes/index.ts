export { ChangeBatchStore, countLineChanges, type ChangeBatchStoreOptions } from './store';
export { UnknownIdError } from './errors';
export { toUnifiedDiff } from './unified-diff';
export { writeFileAtomic, readTextOrNull, deleteFileIfExists } from './atomic-write';
