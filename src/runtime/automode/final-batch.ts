import { realpathSync } from 'node:fs';
import path from 'node:path';
import { summarizeBatch, type StoredBatch } from '../changes';
import type { Session } from '../agent/session';
import { branchChanges, type Worktree } from './git-worktree';

export interface BranchBatch {
  batch: StoredBatch | null;
  /** Binary files the branch changed: not in the batch (it holds text), reached by merging the branch. */
  skipped: string[];
}

/**
 * Offers the branch's diff against its base as one change batch in the user's workspace (`session`, rooted in the
 * user's folder), for the usual review: accepting it applies it there with the journal. Emits `change_batch_ready`.
 */
export async function proposeBranchBatch(session: Session, wt: Worktree, runId: string): Promise<BranchBatch> {
  const under = path.relative(wt.repoRoot, realpathSync.native(session.cwd));
  const changes = await branchChanges(wt.repoRoot, wt.base, wt.branch, under);
  if (changes.length === 0) return { batch: null, skipped: [] };
  if (!session.store.beginRun(runId)) {
    const other = session.store.pending() ?? session.store.open();
    throw new Error(
      `the branch ${wt.branch} could not be offered as a change batch: batch ${other?.id ?? '?'} is still open or waiting for a decision; decide it, then merge the branch with git merge ${wt.branch}`,
    );
  }
  const skipped: string[] = [];
  for (const c of changes) {
    if (c.binary) skipped.push(c.path);
    else await session.store.propose(path.join(session.cwd, c.path), c.content);
  }
  const batch = session.store.finalize();
  if (batch) session.emit({ type: 'change_batch_ready', runId, batch: summarizeBatch(batch) });
  return { batch, skipped };
}
