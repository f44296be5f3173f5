import type { ChangeKind, ChangeResult } from '../protocol/records';

/** What became of one proposed change: the runtime's apply result, or `undecided` while its batch waits. */
export type ChangeOutcome = ChangeResult['status'] | 'undecided';

/** One change a run proposed, with its outcome. */
export interface RunChange {
  /** The change id (for `decideChanges` with `accept_selected`). */
  id: string;
  batchId: string;
  /** Workspace-relative, `/`-separated. */
  path: string;
  kind: ChangeKind;
  outcome: ChangeOutcome;
  /** Why a change is `stale` or `failed`. */
  error?: string;
  /** A change decided per hunk: the indexes of the hunks written and how many it had. */
  hunks?: { applied: number[]; total: number };
}
