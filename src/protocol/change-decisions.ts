import * as z from './zod';
import { ChangeContents, ChangeDecision, ChangeResult, HunkSelection } from './records';

/** Deciding a run's change batch, and fetching both sides of its changes for a diff. */
export const changeMethods = {
  /**
   * `hunks` decides accepted changes per hunk: change id → indexes into that change's `ChangeContents.hunks`. Such a
   * change is written as its original with only those hunks applied (none listed: rejected); accepted changes without
   * an entry are written whole. Only for modified files, and only for changes the decision accepts.
   */
  decideChanges: {
    params: z
      .object({ batchId: z.string().min(1), decision: ChangeDecision, changeIds: z.array(z.string().min(1)).optional(), hunks: HunkSelection.optional() })
      .refine((p) => p.decision !== 'accept_selected' || (p.changeIds?.length ?? 0) > 0, {
        message: 'accept_selected needs at least one change id',
        path: ['changeIds'],
      })
      .refine((p) => p.decision !== 'reject_all' || p.hunks === undefined, {
        message: 'reject_all applies no hunk: leave hunks out, or accept the changes whose hunks you chose',
        path: ['hunks'],
      }),
    result: z.object({ batchId: z.string(), results: z.array(ChangeResult) }),
  },
  /**
   * Both sides of changes of the open or pending batch (all of them, or the ids given), e.g. when a diff is opened.
   * One answer carries at most MAX_CHANGE_CONTENTS_BYTES of contents as JSON (always at least one change): the ids
   * left out are listed in `omitted`, to be asked for again. A decided batch keeps no contents (UnknownId).
   */
  getChangeContents: {
    params: z.object({ batchId: z.string().min(1), changeIds: z.array(z.string().min(1)).optional() }),
    result: z.object({ batchId: z.string(), contents: z.array(ChangeContents), omitted: z.array(z.string()) }),
  },
} as const;
