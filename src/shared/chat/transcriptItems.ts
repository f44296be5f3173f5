/**
 * The transcript as the chat panel shows it: a flat list of items built from runtime events by the reducer
 * (transcriptReducer.ts). Shared by the webview and the extension (which keeps its own copy for `init` snapshots),
 * so this file imports nothing from vscode or the DOM.
 */
import * as z from '../../protocol/zod';
import { ErrorFix, EventErrorCodes } from '../../protocol/errors';
import { ChangeResult, PermissionChoice, PlanStep, PromptContext } from '../../protocol/records';
import { ChangeSummary, UndoFileResult } from '../../protocol/undo';

/** A context attachment shown as a removable chip above the prompt box and sent with the prompt. */
export const ContextChip = z.lazy(() =>
  PromptContext.extend({
    /** Stable id chosen by whoever created the chip (the extension for selections/files). */
    id: z.string().min(1, 'a context chip needs a non-empty id'),
  }),
);
export type ContextChip = z.infer<typeof ContextChip>;

export const UserItem = z.lazy(() =>
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    context: z.array(ContextChip),
    /** The run this prompt started; absent until `agent_start` arrives (or forever if the prompt was refused). */
    runId: z.string().optional(),
    /** Set by the webview for prompts it sent, so a refused prompt can be marked failed. */
    promptId: z.string().optional(),
    failed: z.boolean().optional(),
    /** `@` mentions of the text the extension did not attach (outside the workspace, not found): shown struck through. */
    refusedMentions: z.array(z.string()).optional(),
  }),
);

export const AssistantItem = z.lazy(() =>
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    messageId: z.string(),
    runId: z.string(),
    text: z.string(),
    streaming: z.boolean(),
  }),
);

export const ToolStatus = z.enum(['running', 'success', 'failure', 'cancelled']);
export const RequestStatus = z.enum(['pending', 'allowed', 'denied', 'cancelled']);
/** A permission or directory-access answer for this call, shown on the tool card itself (one call, one card). */
export const ToolDecision = z.lazy(() =>
  z.object({
    kind: z.enum(['permission', 'directory']),
    outcome: RequestStatus.exclude(['pending']),
    /** For an allowed permission: once, session or always. */
    scope: z.string().optional(),
    /** For a denial: what the user asked the agent to do instead. */
    alternative: z.string().optional(),
    /** For directory access: the folder. */
    path: z.string().optional(),
  }),
);
/** In batch mode a file tool only proposes a change; its fate comes with the batch decision (matched by path). */
export const ToolChange = z.enum(['proposed', 'applied', 'rejected', 'stale', 'failed']);
export const ToolItem = z.lazy(() =>
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    toolCallId: z.string(),
    runId: z.string(),
    toolName: z.string(),
    /** One line: the most telling argument (command, path, pattern...) cut to a readable length. */
    argsSummary: z.string(),
    /** Streamed output, bounded: only the tail is kept (see MAX_TOOL_OUTPUT in model/transcriptModel.ts). */
    output: z.string(),
    outputTruncated: z.boolean(),
    status: ToolStatus,
    durationMs: z.number().nonnegative().optional(),
    error: z.string().optional(),
    /** The file a file tool works on (its `path` argument), to match it with a change batch. */
    path: z.string().optional(),
    decisions: z.array(ToolDecision).optional(),
    change: ToolChange.optional(),
  }),
);

export const PermissionItem = z.lazy(() =>
  z.object({
    kind: z.literal('permission'),
    id: z.string(),
    requestId: z.string(),
    runId: z.string().optional(),
    /** The tool call asking; once resolved, the answer moves onto that call's tool card. */
    toolCallId: z.string().optional(),
    tool: z.string(),
    description: z.string(),
    command: z.string().optional(),
    paths: z.array(z.string()).optional(),
    suggestedRules: z.array(z.string()),
    choices: z.array(PermissionChoice),
    status: RequestStatus,
    /** For `allowed`: once, session or always. */
    scope: z.string().optional(),
    /** For `denied`: the alternative the user suggested. */
    alternative: z.string().optional(),
  }),
);

export const DirectoryItem = z.lazy(() =>
  z.object({
    kind: z.literal('directory'),
    id: z.string(),
    requestId: z.string(),
    runId: z.string().optional(),
    toolCallId: z.string().optional(),
    path: z.string(),
    reason: z.string(),
    status: RequestStatus,
  }),
);

/** A change without its file contents: the panel needs only names and counts (contents go to the diff editor). */
export const BatchFile = ChangeSummary;
export type BatchFile = z.infer<typeof BatchFile>;

export const BatchItem = z.lazy(() =>
  z.object({
    kind: z.literal('batch'),
    id: z.string(),
    batchId: z.string(),
    runId: z.string(),
    status: z.enum(['open', 'pending', 'decided']),
    files: z.array(BatchFile),
    results: z.array(ChangeResult).optional(),
    /** Per-file results of undoing the applied batch (`changes_reverted`), the latest per file. */
    undoResults: z.array(UndoFileResult).optional(),
  }),
);

export const ErrorItem = z.lazy(() =>
  z.object({
    kind: z.literal('error'),
    id: z.string(),
    code: z.union([z.enum(EventErrorCodes), z.literal('extension')]),
    message: z.string(),
    remedy: z.string().optional(),
    /** The setting that fixes it: the card shows its buttons (errorActions.ts). */
    fix: ErrorFix.optional(),
    runId: z.string().optional(),
  }),
);

/** A short status line: run stopped/aborted, new chat started. */
export const NoticeItem = z.lazy(() =>
  z.object({
    kind: z.literal('notice'),
    id: z.string(),
    text: z.string(),
    runId: z.string().optional(),
  }),
);

/**
 * A plan: proposed in plan mode (`plan_proposed`, waiting for Accept or Revise) or carried out (`plan_update`, a live
 * checklist). `accepted`/`revised` are the user's reply to a proposed plan; `expired` when the runtime no longer waits
 * for it (e.g. it restarted); `running` while its steps are carried out, `finished` after that run.
 */
export const PlanItem = z.lazy(() =>
  z.object({
    kind: z.literal('plan'),
    id: z.string(),
    planId: z.string(),
    runId: z.string(),
    steps: z.array(PlanStep),
    status: z.enum(['proposed', 'accepted', 'revised', 'expired', 'running', 'finished']),
    /** How many times the run re-planned. */
    replans: z.number().int().nonnegative().optional(),
  }),
);

/** A reflexion run's critique of a failed step (collapsed by default). */
export const ReflectionItem = z.lazy(() =>
  z.object({
    kind: z.literal('reflection'),
    id: z.string(),
    runId: z.string(),
    attempt: z.number().int().positive(),
    maxRetries: z.number().int().nonnegative(),
    critique: z.string(),
    failedTools: z.array(z.string()),
  }),
);

export const TranscriptItem = z.lazy(() =>
  z.discriminatedUnion('kind', [
    UserItem,
    AssistantItem,
    ToolItem,
    PermissionItem,
    DirectoryItem,
    BatchItem,
    ErrorItem,
    NoticeItem,
    PlanItem,
    ReflectionItem,
  ]),
);
export type TranscriptItem = z.infer<typeof TranscriptItem>;
export type ItemOf<K extends TranscriptItem['kind']> = Extract<TranscriptItem, { kind: K }>;

