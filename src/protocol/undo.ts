import * as z from './zod';
import { ChangeKind, ChangeResult } from './records';

/**
 * Undoing an applied change batch. When a batch is applied the runtime keeps, per written file, its content before and
 * after (bounded, see undo-limits.ts: the last 10 applied batches of a session, 2 MiB a file side, 16 MiB a batch,
 * 32 MiB in all), saved next to the session (0600). A file whose contents hold a secret, or are over the limits, is
 * kept as `not_undoable` with the reason. `undone`: reverted already (a file is never reverted twice).
 */
export const AppliedFileState = z.enum(['undoable', 'undone', 'not_undoable']);
export type AppliedFileState = z.infer<typeof AppliedFileState>;

export const AppliedFile = z.lazy(() =>
  z.object({
    changeId: z.string(),
    /** Workspace-relative path with `/`. */
    path: z.string(),
    /** What the batch did to the file; undoing it deletes a created file, re-creates a deleted one, restores a modified one. */
    kind: ChangeKind,
    state: AppliedFileState,
    /** Why the file cannot be undone (`not_undoable`). */
    reason: z.string().optional(),
  }),
);
export type AppliedFile = z.infer<typeof AppliedFile>;

export const AppliedBatch = z.lazy(() =>
  z.object({
    batchId: z.string(),
    runId: z.string(),
    /** When the batch was applied (ISO 8601). */
    appliedAt: z.string(),
    /** The files the batch wrote (rejected, stale or failed files are not listed). */
    files: z.array(AppliedFile),
    /** Some file can still be undone. */
    undoable: z.boolean(),
  }),
);
export type AppliedBatch = z.infer<typeof AppliedBatch>;

/**
 * One file of an undo: `reverted` (back as it was before the batch), `stale` (the file changed since the batch wrote
 * it; never overwritten, `reason` says so), `failed` (`reason`: e.g. a folder on its path became a symlink), `skipped`
 * (already undone, not undoable, or a protected path not named in `paths`; `reason` says which).
 */
export const UndoFileResult = z.lazy(() =>
  z.object({
    changeId: z.string(),
    path: z.string(),
    status: z.enum(['reverted', 'stale', 'failed', 'skipped']),
    reason: z.string().optional(),
  }),
);
export type UndoFileResult = z.infer<typeof UndoFileResult>;

/** A change without its file contents: its name and line counts (a decided batch's files; the panel's batch card). */
export const ChangeSummary = z.lazy(() =>
  z.object({
    changeId: z.string(),
    path: z.string(),
    kind: ChangeKind,
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
  }),
);
export type ChangeSummary = z.infer<typeof ChangeSummary>;

/**
 * A change batch as it was decided, kept in the saved session for its transcript (`getSession.decidedBatches`): its
 * files without contents, each file's result, and the latest undo result of each file reverted since. Whether it can
 * still be undone is `listAppliedChanges`'s answer once the session is attached.
 */
export const DecidedBatch = z.object({
  batchId: z.string(),
  runId: z.string(),
  files: z.array(ChangeSummary),
  results: z.array(ChangeResult),
  undoResults: z.array(UndoFileResult).optional(),
});
export type DecidedBatch = z.infer<typeof DecidedBatch>;

/** Files of an applied batch were reverted (`undoChanges`); the results are per file. */
export const ChangesRevertedEvent = z.lazy(() =>
  z.object({
    type: z.literal('changes_reverted'),
    sessionId: z.string(),
    batchId: z.string(),
    results: z.array(UndoFileResult),
  }),
);
