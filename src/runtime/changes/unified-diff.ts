import { formatPatch, structuredPatch, type StructuredPatch } from 'diff';
import { HUNK_CONTEXT } from './hunks';
import type { StoredBatch, StoredChange } from './stored';

function patchOf(change: StoredChange): StructuredPatch {
  const isCreate = change.originalContent === null;
  const isDelete = change.proposedContent === null;
  const patch = structuredPatch(
    isCreate ? '/dev/null' : `a/${change.path}`,
    isDelete ? '/dev/null' : `b/${change.path}`,
    change.originalContent ?? '',
    change.proposedContent ?? '',
    undefined,
    undefined,
    { context: HUNK_CONTEXT },
  );
  return { ...patch, isGit: true, isCreate, isDelete };
}

/**
 * The batch as one git-style patch (`a/` and `b/` prefixes, `/dev/null` for creates and deletes), applicable
 * with `git apply` or `patch -p1` from the workspace root. Changes without any difference are left out.
 */
export function toUnifiedDiff(batch: Pick<StoredBatch, 'changes'>): string {
  const patches = batch.changes
    .map(patchOf)
    .filter((p) => p.hunks.length > 0 || p.isCreate || p.isDelete);
  if (patches.length === 0) return '';
  return patches.map((p) => formatPatch(p)).join('');
}
