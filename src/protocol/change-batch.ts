/**
 * Following a change batch from its events, for hosts: `change_batch_updated` carries only what changed, so a host
 * keeps the batch by merging each update into what it holds. Pure, no Node APIs (the webview uses it too).
 */
import type { EventOf } from './events';
import type { ChangeBatch } from './records';

export type ChangeBatchUpdate = Pick<EventOf<'change_batch_updated'>, 'batchId' | 'runId' | 'changes' | 'removed' | 'fileCount'>;

/**
 * The batch after `update`: changed entries replaced in place, new ones appended, removed ids dropped. A batch with
 * another id (or none) is started afresh. The result is a new object; `held` is not modified.
 */
export function mergeBatchUpdate(held: ChangeBatch | null | undefined, update: ChangeBatchUpdate): ChangeBatch {
  const base = held && held.id === update.batchId ? held.changes : [];
  const removed = new Set(update.removed);
  const incoming = new Map(update.changes.map((c) => [c.id, c]));
  const changes = base.filter((c) => !removed.has(c.id)).map((c) => incoming.get(c.id) ?? c);
  const known = new Set(changes.map((c) => c.id));
  for (const c of update.changes) if (!known.has(c.id) && !removed.has(c.id)) changes.push(c);
  return { id: update.batchId, runId: update.runId, status: 'open', changes };
}

/** True when the merged batch lacks entries the runtime has (updates were missed): ask `getState` for the whole batch. */
export function batchIsIncomplete(batch: ChangeBatch, update: Pick<ChangeBatchUpdate, 'fileCount'>): boolean {
  return batch.changes.length !== update.fileCount;
}
