/**
 * The store's own records: a change with both of its contents. Only in-process code (the CLI's review and --patch)
 * sees them; the wire carries summaries (`Change`) and the contents only on request (`getChangeContents`).
 */
import type { Change, ChangeBatch, ChangeContents } from '../../protocol/records';
import { hunksOf } from './hunks';

export interface StoredChange extends Change {
  /** Content on disk when first proposed; null for a create. */
  originalContent: string | null;
  /** Content to write; null for a delete. */
  proposedContent: string | null;
}

export interface StoredBatch extends Omit<ChangeBatch, 'changes'> {
  changes: StoredChange[];
}

/** What one proposal did to the open batch: the entries it added or changed and the ids it removed. */
export interface BatchUpdate {
  batchId: string;
  runId: string;
  changes: Change[];
  removed: string[];
  fileCount: number;
}

export const utf8Bytes = (text: string | null): number | null => (text === null ? null : Buffer.byteLength(text, 'utf8'));

/** The change without its contents, as events carry it. */
export function summarizeChange(c: StoredChange): Change {
  return {
    id: c.id,
    path: c.path,
    absolutePath: c.absolutePath,
    kind: c.kind,
    additions: c.additions,
    deletions: c.deletions,
    revision: c.revision,
    originalBytes: c.originalBytes,
    proposedBytes: c.proposedBytes,
  };
}

export function summarizeBatch(b: StoredBatch): ChangeBatch {
  return { id: b.id, runId: b.runId, status: b.status, changes: b.changes.map(summarizeChange) };
}

export function contentsOf(c: StoredChange): ChangeContents {
  return {
    changeId: c.id,
    path: c.path,
    revision: c.revision,
    originalContent: c.originalContent,
    proposedContent: c.proposedContent,
    hunks: hunksOf(c),
  };
}
