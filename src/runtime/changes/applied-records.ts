/**
 * What the runtime keeps of an applied change batch so it can be undone: per written file its content before and
 * after the batch, its mode and the folders the write created. Bounded when recorded (see applied-batches.ts); saved
 * next to the session in this shape (see sessions/applied-file.ts), checked with this schema when read back.
 */
import * as z from '../../protocol/zod';
import { ChangeKind } from '../../protocol/records';
import { AppliedFileState, type AppliedBatch } from '../../protocol/undo';
import { utf8Bytes } from './stored';


/** Bytes of contents a batch keeps. */
export function keptBytes(r: AppliedBatchRecord): number {
  return r.files.reduce((n, f) => n + (utf8Bytes(f.before) ?? 0) + (utf8Bytes(f.after) ?? 0), 0);
}

export const AppliedFileRecord = z.lazy(() =>
  z.object({
    changeId: z.string(),
    path: z.string(),
    absolutePath: z.string(),
    kind: ChangeKind,
    state: AppliedFileState,
    reason: z.string().optional(),
    /** Content before the batch (null: the file did not exist). Not kept for a `not_undoable` file. */
    before: z.string().nullable(),
    /** What the batch wrote (null: it deleted the file). Not kept for a `not_undoable` file. */
    after: z.string().nullable(),
    /** Permission bits of the file before the batch, to re-create a deleted file as it was. */
    mode: z.number().int().nonnegative().optional(),
    /** Folders the batch created for the file (outermost first), removed again when left empty by the undo. */
    createdDirs: z.array(z.string()),
  }),
);
export type AppliedFileRecord = z.infer<typeof AppliedFileRecord>;

export const AppliedBatchRecord = z.lazy(() =>
  z.object({
    batchId: z.string(),
    runId: z.string(),
    appliedAt: z.string(),
    files: z.array(AppliedFileRecord),
  }),
);
export type AppliedBatchRecord = z.infer<typeof AppliedBatchRecord>;

export function summarizeApplied(r: AppliedBatchRecord): AppliedBatch {
  return {
    batchId: r.batchId,
    runId: r.runId,
    appliedAt: r.appliedAt,
    files: r.files.map((f) => ({ changeId: f.changeId, path: f.path, kind: f.kind, state: f.state, ...(f.reason ? { reason: f.reason } : {}) })),
    undoable: r.files.some((f) => f.state === 'undoable'),
  };
}
