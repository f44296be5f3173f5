import { RpcErrorCode } from '../../protocol/errors';
import { MAX_CHANGE_CONTENTS_BYTES } from '../../protocol/limits';
import type { ChangeDecision, HunkSelection } from '../../protocol/records';
import { ChangeBatchStore, describeRecovered, summarizeBatch } from '../changes';
import { ContentsTooLargeError, HunkSelectionError, UnknownIdError } from '../changes/errors';
import { RuntimeRequestError } from './errors';
import type { EventDraft } from './host';
import { newId } from './ids';

/**
 * The session's change batch store, its updates and writes reported as events (`change_batch_updated`,
 * `file_modified`) and a batch recovered from a killed runtime as a notice.
 */
export function createChangeStore(cwd: string, emit: (draft: EventDraft) => void, notice: (line: string) => void): ChangeBatchStore {
  const store = new ChangeBatchStore({ root: cwd, newId: () => newId('chg') });
  store.onUpdate = (u) => {
    emit({ type: 'change_batch_updated', runId: u.runId, batchId: u.batchId, status: 'open', changes: u.changes, removed: u.removed, fileCount: u.fileCount });
  };
  store.onFileWritten = (p, changeId) => emit({ type: 'file_modified', path: p, changeId });
  store.onRecovered = (recovered) => notice(describeRecovered(recovered));
  return store;
}

/** At a run's end (batch mode): the batch it left is ready for a decision (`change_batch_ready`). */
export function finalizeRunBatch(store: ChangeBatchStore, runId: string, emit: (draft: EventDraft) => void): void {
  const batch = store.finalize();
  if (batch) emit({ type: 'change_batch_ready', runId, batch: summarizeBatch(batch) });
}

/** `decideChanges`: the store's decision reported (`change_batch_decided`); its refusals become protocol errors. */
export async function decideBatch(
  store: ChangeBatchStore,
  emit: (draft: EventDraft) => void,
  batchId: string,
  decision: ChangeDecision,
  changeIds?: string[],
  hunks?: HunkSelection,
) {
  try {
    const results = await store.decide(batchId, decision, changeIds, hunks);
    emit({ type: 'change_batch_decided', batchId, results });
    return { batchId, results };
  } catch (e) {
    if (e instanceof UnknownIdError) throw new RuntimeRequestError(RpcErrorCode.UnknownId, e.message);
    if (e instanceof HunkSelectionError) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, e.message);
    throw e;
  }
}

/**
 * Both sides of changes of the open or pending batch (events carry none), bounded per answer; one change larger than
 * `maxChange` (the host's line limit) is refused with a message naming it.
 */
export function batchContents(store: ChangeBatchStore, batchId: string, changeIds?: string[], maxChange = Number.POSITIVE_INFINITY) {
  try {
    return { batchId, ...store.contents(batchId, changeIds, MAX_CHANGE_CONTENTS_BYTES, maxChange) };
  } catch (e) {
    if (e instanceof UnknownIdError) throw new RuntimeRequestError(RpcErrorCode.UnknownId, e.message);
    if (e instanceof ContentsTooLargeError) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, e.message);
    throw e;
  }
}
