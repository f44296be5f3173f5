import * as z from './zod';
import { LOOP_TYPES, PERMISSION_MODES, PROVIDER_IDS } from './constants';

export { LOOP_TYPES, PERMISSION_MODES, PROVIDER_IDS };

export const ProviderId = z.enum(PROVIDER_IDS);
export type ProviderId = z.infer<typeof ProviderId>;

export const PermissionMode = z.enum(PERMISSION_MODES);

/** What a permission card may offer: allow once, for the session, always (saves a rule), deny, or deny with an alternative. */
export const PermissionChoice = z.enum(['once', 'session', 'always', 'deny', 'alternative']);
export type PermissionChoice = z.infer<typeof PermissionChoice>;
/** The choices when no rule can be suggested (nothing to remember for the session or save). */
export const PERMISSION_CHOICES_WITHOUT_RULE: readonly PermissionChoice[] = ['once', 'deny', 'alternative'];

/**
 * The command sandbox (`sandbox.mode`, `sandbox.network` settings) and whether this machine can run it. `reason` says
 * why not, with the fix; commands then fail with that message unless the mode is `off`.
 */
export const SandboxState = z.lazy(() =>
  z.object({
    mode: z.enum(['workspace-write', 'read-only', 'off']),
    available: z.boolean(),
    reason: z.string().optional(),
    network: z.boolean(),
  }),
);
export type SandboxState = z.infer<typeof SandboxState>;
export type PermissionMode = z.infer<typeof PermissionMode>;

export const LoopType = z.enum(LOOP_TYPES);
export type LoopType = z.infer<typeof LoopType>;

export const PlanStepStatus = z.enum(['pending', 'in_progress', 'done', 'failed', 'skipped']);
export type PlanStepStatus = z.infer<typeof PlanStepStatus>;
/** One step of a plan (`submit_plan`): what to do, optional details, and how far it got. */
export const PlanStep = z.lazy(() =>
  z.object({
    title: z.string(),
    detail: z.string().optional(),
    status: PlanStepStatus,
    /** Why a step failed or was skipped, or what a done step reported (first line). */
    note: z.string().optional(),
  }),
);
export type PlanStep = z.infer<typeof PlanStep>;

export const PermissionScope = z.enum(['once', 'session', 'always']);
export type PermissionScope = z.infer<typeof PermissionScope>;

export const DirectoryAccessScope = z.enum(['once', 'session']);
export type DirectoryAccessScope = z.infer<typeof DirectoryAccessScope>;

export const RunStatus = z.enum(['completed', 'aborted', 'stopped', 'error']);
export type RunStatus = z.infer<typeof RunStatus>;

export const TurnEndReason = z.enum(['tool_use', 'completed', 'stop_condition', 'aborted', 'max_iterations', 'error']);
export type TurnEndReason = z.infer<typeof TurnEndReason>;

export const AgentStep = z.lazy(() =>
  z.object({
    stepNumber: z.number().int().positive(),
    thought: z.string().optional(),
    toolCalls: z.array(z.object({ tool: z.string(), args: z.unknown() })),
    toolResults: z.array(
      z.object({ tool: z.string(), success: z.boolean(), output: z.string().optional(), error: z.string().optional() }),
    ),
  }),
);
export type AgentStep = z.infer<typeof AgentStep>;

export const ChangeKind = z.enum(['create', 'modify', 'delete']);
export type ChangeKind = z.infer<typeof ChangeKind>;

/**
 * One proposed file change as events and `getState` carry it: what changes, never the contents (a batch event stays
 * small however large the files are); `getChangeContents` answers both sides. Paths are workspace-relative with `/`.
 */
export const Change = z.lazy(() =>
  z.object({
    id: z.string(),
    path: z.string(),
    absolutePath: z.string(),
    kind: ChangeKind,
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
    /** Grows each time the change's proposed content changes: contents fetched for an older revision are outdated. */
    revision: z.number().int().positive(),
    /** UTF-8 size of the content on disk when first proposed; null for a create. */
    originalBytes: z.number().int().nonnegative().nullable(),
    /** UTF-8 size of the content to write; null for a delete. */
    proposedBytes: z.number().int().nonnegative().nullable(),
  }),
);
export type Change = z.infer<typeof Change>;

export const ChangeBatchStatus = z.enum(['open', 'pending', 'decided']);
export const ChangeBatch = z.lazy(() =>
  z.object({
    id: z.string(),
    runId: z.string(),
    status: ChangeBatchStatus,
    changes: z.array(Change),
  }),
);
export type ChangeBatch = z.infer<typeof ChangeBatch>;

/**
 * One hunk of a modified file as the runtime defines it (a unified diff with 3 lines of context, see
 * change-hunks.ts): original lines `oldStart`… (`oldLines` of them) become proposed lines `newStart`… (`newLines`).
 * Lines are 1-based; a hunk is named in `decideChanges.hunks` by its index in `ChangeContents.hunks`.
 */
export const ChangeHunk = z.lazy(() =>
  z.object({
    oldStart: z.number().int().nonnegative(),
    oldLines: z.number().int().nonnegative(),
    newStart: z.number().int().nonnegative(),
    newLines: z.number().int().nonnegative(),
  }),
);
export type ChangeHunk = z.infer<typeof ChangeHunk>;

/** Both sides of one change at one revision, as `getChangeContents` answers them. */
export const ChangeContents = z.lazy(() =>
  z.object({
    changeId: z.string(),
    path: z.string(),
    revision: z.number().int().positive(),
    /** Content on disk when first proposed; null for a create. */
    originalContent: z.string().nullable(),
    /** Content to write; null for a delete. */
    proposedContent: z.string().nullable(),
    /** The hunks of a modify, in file order (decidable one by one); empty for a create or a delete (whole file only). */
    hunks: z.array(ChangeHunk),
  }),
);
export type ChangeContents = z.infer<typeof ChangeContents>;

export const ChangeResultStatus = z.enum(['applied', 'rejected', 'stale', 'failed']);
export const ChangeResult = z.lazy(() =>
  z.object({
    changeId: z.string(),
    path: z.string(),
    status: ChangeResultStatus,
    error: z.string().optional(),
    /** Only for a change decided per hunk: the indexes of the hunks written (when `applied`) and how many it had. */
    hunks: z.object({ applied: z.array(z.number().int().nonnegative()), total: z.number().int().nonnegative() }).optional(),
  }),
);
export type ChangeResult = z.infer<typeof ChangeResult>;

/**
 * A change batch whose apply a runtime did not finish (killed mid-apply), as the next runtime in the workspace found
 * it in the apply journal. `rolled_back`: files already written were restored to their originals; `completed`: every
 * file had been written, only the journal was left. Per file: `restored` (back to its original), `unchanged` (not
 * written yet, still the original), `applied` (a completed batch's file), `conflict` (changed by someone else since;
 * left as it is, `error` says why).
 */
export const RecoveredApply = z.lazy(() =>
  z.object({
    batchId: z.string(),
    outcome: z.enum(['rolled_back', 'completed']),
    /** When the interrupted apply started (ISO 8601). */
    startedAt: z.string(),
    files: z.array(
      z.object({
        changeId: z.string(),
        path: z.string(),
        status: z.enum(['restored', 'unchanged', 'applied', 'conflict']),
        error: z.string().optional(),
      }),
    ),
  }),
);
export type RecoveredApply = z.infer<typeof RecoveredApply>;

export const ChangeDecision = z.enum(['accept_all', 'reject_all', 'accept_selected']);
export type ChangeDecision = z.infer<typeof ChangeDecision>;

/** Per-hunk choices of a decision: change id → indexes into its `ChangeContents.hunks` to apply, each at most once. */
export const HunkSelection = z.lazy(() =>
  z
    .record(z.string().min(1), z.array(z.number().int().nonnegative()).max(100_000))
    .superRefine((selection, ctx) => {
      for (const [changeId, indexes] of Object.entries(selection)) {
        const seen = new Set<number>();
        const twice = indexes.find((n) => seen.size === seen.add(n).size);
        if (twice !== undefined) ctx.addIssue({ code: 'custom', path: [changeId], message: `hunk ${twice} is listed twice; list each hunk once` });
      }
    }),
);
export type HunkSelection = z.infer<typeof HunkSelection>;

/** A conversation message as stored in the session history. */
export const HistoryMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
});
export type HistoryMessage = z.infer<typeof HistoryMessage>;

export const PendingPermission = z.lazy(() =>
  z.object({
    requestId: z.string(),
    tool: z.string(),
    description: z.string(),
    /** What the host may offer, as in the `permission_request` event. */
    choices: z.array(PermissionChoice),
    acknowledged: z.boolean(),
  }),
);
export const PendingDirectoryAccess = z.lazy(() =>
  z.object({
    requestId: z.string(),
    path: z.string(),
    reason: z.string(),
    acknowledged: z.boolean(),
  }),
);

/** Context attached to a prompt by the host (open file, selection). */
export const PromptContext = z.object({
  kind: z.enum(['file', 'selection']),
  path: z.string(),
  text: z.string().optional(),
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type PromptContext = z.infer<typeof PromptContext>;

/** Ask the model for JSON only; `json_schema` uses the provider's schema response format where it has one. */
export const ResponseFormat = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('json_object') }),
    z.object({ type: z.literal('json_schema'), name: z.string().min(1), schema: z.record(z.string(), z.unknown()) }),
  ]),
);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

/** One saved session in the history list (`getHistory`): `title` is its first prompt, shortened. */
export const HistoryEntry = z.object({
  sessionId: z.string(),
  title: z.string(),
  cwd: z.string(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** ISO 8601: the last write. */
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  provider: z.string(),
  model: z.string(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Why `attachSession` did not attach (spec 001 §7: never a different session instead). */
export const AttachFailureReason = z.enum(['not_found', 'busy', 'corrupt', 'other_workspace']);
export type AttachFailureReason = z.infer<typeof AttachFailureReason>;
