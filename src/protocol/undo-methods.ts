/**
 * The undo methods (`listAppliedChanges`, `undoChanges`), apart from the records in ./undo: the runtime's change store
 * imports those at start, and these schemas are built only where the method table is.
 */
import * as z from './zod';
import { AppliedBatch, UndoFileResult } from './undo';

/** Undoing applied change batches. */
export const undoMethods = {
  /** The session's applied batches that were kept for undo, newest first. */
  listAppliedChanges: {
    params: z.object({}).strict(),
    result: z.object({ batches: z.array(AppliedBatch) }),
  },
  /**
   * Reverts the files of an applied batch (`batchId`, default: the newest with a file left to undo), all of its
   * undoable files or those of `paths` (workspace-relative, as the batch lists them; an unknown one is -32602). Each
   * file is re-checked at write time: one changed since the batch wrote it is `stale` and kept; one that now resolves
   * through a symlink is `failed`. A protected path (editor settings, environment files, ...) is reverted only when
   * named in `paths`. Refused while a run is active or a batch waits for a decision. Emits `changes_reverted`.
   */
  undoChanges: {
    params: z.object({
      batchId: z.string().min(1).optional(),
      paths: z.array(z.string().min(1)).min(1).max(10_000).optional(),
    }),
    result: z.object({ batchId: z.string(), results: z.array(UndoFileResult) }),
  },
} as const;
