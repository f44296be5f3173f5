/**
 * The lines of a saved session file (JSON lines, append-only). The first line is the `meta` record; every later line
 * carries `count` (messages saved so far) and the provider and model in use, so a listing reads only the file's head
 * and its last line.
 */
import * as z from '../../protocol/zod';
import { Change, ChangeBatchStatus, HistoryMessage } from '../../protocol/records';
import { ErrorFix } from '../../protocol/errors';
import { DecidedBatch, UndoFileResult } from '../../protocol/undo';

export const SESSION_FILE_VERSION = 1;

export const MetaRecord = z.lazy(() =>
  z.object({
    type: z.literal('meta'),
    version: z.literal(SESSION_FILE_VERSION),
    sessionId: z.string(),
    cwd: z.string(),
    createdAt: z.string(),
    /** The first prompt, shortened and redacted. */
    title: z.string(),
    provider: z.string(),
    model: z.string(),
  }),
);
export type MetaRecord = z.infer<typeof MetaRecord>;

const lineBase = { at: z.string(), count: z.number().int().nonnegative(), provider: z.string(), model: z.string() };

export const MessageRecord = z.lazy(() =>
  z.object({ type: z.literal('message'), ...lineBase, message: HistoryMessage }),
);
export const ErrorRecord = z.lazy(() =>
  z.object({
    type: z.literal('error'),
    ...lineBase,
    runId: z.string().optional(),
    /** For a `tool_error`: the failed call. */
    toolCallId: z.string().optional(),
    code: z.string(),
    error: z.string(),
    remedy: z.string().optional(),
    /** The setting that fixes it (the event's `fix`), so a reopened chat offers the same button. */
    fix: ErrorFix.optional(),
  }),
);
/** The provider or model changed (written before the first message that uses it). */
export const ModelRecord = z.lazy(() =>
  z.object({ type: z.literal('model'), ...lineBase }),
);

/** A saved change: the protocol's summary plus both contents, so an undecided batch comes back whole on attach. */
const SavedChange = z.lazy(() =>
  Change.unwrap().extend({
    originalContent: z.string().nullable(),
    proposedContent: z.string().nullable(),
  }),
);
export const SavedBatch = z.lazy(() =>
  z.object({ id: z.string(), runId: z.string(), status: ChangeBatchStatus, changes: z.array(SavedChange) }),
);
export type SavedBatch = z.infer<typeof SavedBatch>;

/**
 * The change batch waiting for a decision, or null once it was decided. `unsaved` lists the paths of changes left out
 * because their contents held a secret (never written to disk). The line that ends a batch carries it as `decided`
 * (files, results); one written after an undo (no batch is pending then) carries the undo's results as `reverted`.
 * Both are optional, so older files and older runtimes read these lines as before.
 */
export const BatchRecord = z.lazy(() =>
  z.object({
    type: z.literal('batch'),
    ...lineBase,
    batch: SavedBatch.nullable(),
    unsaved: z.array(z.string()).optional(),
    decided: DecidedBatch.omit({ undoResults: true }).optional(),
    reverted: z.object({ batchId: z.string(), results: z.array(UndoFileResult) }).optional(),
  }),
);

/** Context compaction: the first `removed` messages saved so far were replaced by `messages` (the summary pair). */
export const CompactedRecord = z.lazy(() =>
  z.object({
    type: z.literal('compacted'),
    ...lineBase,
    removed: z.number().int().nonnegative(),
    messages: z.array(HistoryMessage),
  }),
);

export const SessionLine = z.lazy(() =>
  z.discriminatedUnion('type', [MessageRecord, ErrorRecord, ModelRecord, BatchRecord, CompactedRecord]),
);
export type SessionLine = z.infer<typeof SessionLine>;
export type LineDraft = SessionLine extends infer L ? (L extends SessionLine ? Omit<L, keyof typeof lineBase> : never) : never;
