import * as z from './zod';
import { ErrorFix } from './errors';
import { AttachFailureReason, ChangeBatch, HistoryEntry, HistoryMessage } from './records';
import { DecidedBatch } from './undo';
import { Empty } from './method-shapes';

/** Most entries one `getHistory` page holds. */
export const MAX_HISTORY_PAGE_SIZE = 200;

/** The conversation: clearing it, the saved sessions (list, read, continue, delete) and compacting it now. */
export const conversationMethods = {
  /** Clear the conversation and start a new saved session; a pending change batch is kept. */
  reset: { params: Empty, result: z.object({ sessionId: z.string() }) },
  /**
   * A page of saved sessions, newest first; only the runtime's folder unless `cwd` names another one or
   * `allWorkspaces` is true. `page` starts at 1.
   */
  getHistory: {
    params: z.object({
      page: z.number().int().positive().default(1),
      pageSize: z.number().int().positive().max(MAX_HISTORY_PAGE_SIZE).default(20),
      cwd: z.string().min(1).optional(),
      allWorkspaces: z.boolean().optional(),
    }),
    result: z.object({
      entries: z.array(HistoryEntry),
      total: z.number().int().nonnegative(),
      page: z.number().int().positive(),
      pageSize: z.number().int().positive(),
    }),
  },
  /** A saved session with its messages, errors and undecided change batch; an unknown id is UnknownId. */
  getSession: {
    params: z.object({ sessionId: z.string().min(1) }),
    result: HistoryEntry.extend({
      messages: z.array(HistoryMessage),
      errors: z.array(
        z.object({
          at: z.string(),
          runId: z.string().optional(),
          code: z.string(),
          error: z.string(),
          /** How many of `messages` came before it (a `tool_error` belongs to the tool result at this index). */
          afterMessages: z.number().int().nonnegative().optional(),
          /** The same position in `shown`. */
          afterShown: z.number().int().nonnegative().optional(),
          /** For a `tool_error`: the failed call. */
          toolCallId: z.string().optional(),
          /** What the error event said to do (older files: absent). */
          remedy: z.string().optional(),
          /** The setting that fixes it, as the error event named it (older files: absent). */
          fix: ErrorFix.optional(),
        }),
      ),
      pendingBatch: ChangeBatch.nullable(),
      /** The change batches decided in the session, each where it was decided (older files and runtimes: absent). */
      decidedBatches: z
        .array(DecidedBatch.extend({ afterMessages: z.number().int().nonnegative(), afterShown: z.number().int().nonnegative() }))
        .optional(),
      /**
       * Every message as the conversation showed it, for a transcript: what compaction summarised away stays, and each
       * compaction's summary pair sits where it happened (`messages` is what the model is sent next).
       */
      shown: z.array(HistoryMessage).optional(),
      /** 1 when a torn last line (a write cut short by a killed runtime) was skipped. */
      skippedLines: z.number().int().nonnegative(),
    }),
  },
  /**
   * Continue a saved session of this folder: exactly that id, or a typed failure. The next prompt carries its whole
   * history; an undecided change batch is pending again. Refused while a run is active or a batch awaits a decision.
   */
  attachSession: {
    params: z.object({ sessionId: z.string().min(1) }),
    result: z.discriminatedUnion('attached', [
      z.object({
        attached: z.literal(true),
        sessionId: z.string(),
        messageCount: z.number().int().nonnegative(),
        pendingBatch: ChangeBatch.nullable(),
        /** 1 when a torn last line was skipped (and cut off the file). */
        skippedLines: z.number().int().nonnegative(),
        /** Paths of undecided changes that were not saved because their contents held a secret. */
        unsavedChanges: z.array(z.string()).optional(),
      }),
      z.object({ attached: z.literal(false), reason: AttachFailureReason, message: z.string() }),
    ]),
  },
  /**
   * Delete a saved session of any folder (its file and lock). Refused, with a reason, for the session this runtime
   * is in (`current`: reset first) and for one another live runtime holds (`busy`).
   */
  deleteSession: {
    params: z.object({ sessionId: z.string().min(1) }),
    result: z.discriminatedUnion('deleted', [
      z.object({ deleted: z.literal(true), sessionId: z.string() }),
      z.object({ deleted: z.literal(false), reason: z.enum(['not_found', 'busy', 'current']), message: z.string() }),
    ]),
  },
  /**
   * Summarise the whole conversation now (between runs), like `/compact`: `compacted: false` when there is nothing
   * new to summarise. Emits `context_compacted`; refused (RunInProgress) while a run is active.
   */
  compactContext: {
    params: Empty,
    result: z.object({ compacted: z.boolean(), usedTokens: z.number().int().nonnegative(), messageCount: z.number().int().nonnegative() }),
  },
} as const;
