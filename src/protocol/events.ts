import * as z from './zod';
import { AutomodeCompleteEvent, AutomodeErrorEvent, AutomodeIterationEvent } from './automode';
import { ErrorFix, EventErrorCodes } from './errors';
import { HookEventName, HookSource } from './hooks';
import { LearningProgressEvent } from './learning';
import { ChangesRevertedEvent } from './undo';
import { AgentStep, Change, ChangeBatch, ChangeResult, PermissionChoice, PermissionScope, PlanStep, RunStatus, TurnEndReason } from './records';

/** Every event names its session; run-scoped events also name the run (one `prompt` = one run). */
const base = { sessionId: z.string() };
const run = { ...base, runId: z.string() };
const turn = { ...run, turnId: z.string() };

export const AgentStartEvent = z.lazy(() => z.object({ type: z.literal('agent_start'), ...run, prompt: z.string() }));
export const AgentEndEvent = z.lazy(() =>
  z.object({
    type: z.literal('agent_end'),
    ...run,
    status: RunStatus,
    /** Present when status is `stopped` (e.g. `stop_condition`, `max_iterations`). */
    stoppedReason: z.string().optional(),
    text: z.string(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
);
export const TurnStartEvent = z.lazy(() => z.object({ type: z.literal('turn_start'), ...turn, turnNumber: z.number().int().positive() }));
export const TurnEndEvent = z.lazy(() => z.object({ type: z.literal('turn_end'), ...turn, reason: TurnEndReason }));

export const MessageStartEvent = z.lazy(() =>
  z.object({
    type: z.literal('message_start'),
    ...turn,
    messageId: z.string(),
    role: z.literal('assistant'),
  }),
);
export const MessageUpdateEvent = z.lazy(() => z.object({ type: z.literal('message_update'), ...turn, messageId: z.string(), delta: z.string() }));
export const MessageEndEvent = z.lazy(() => z.object({ type: z.literal('message_end'), ...turn, messageId: z.string(), content: z.string() }));

export const ToolStartEvent = z.lazy(() =>
  z.object({
    type: z.literal('tool_start'),
    ...turn,
    toolCallId: z.string(),
    toolName: z.string(),
    args: z.unknown(),
  }),
);
export const ToolUpdateEvent = z.lazy(() =>
  z.object({
    type: z.literal('tool_update'),
    ...turn,
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
  }),
);
export const ToolEndEvent = z.lazy(() =>
  z.object({
    type: z.literal('tool_end'),
    ...turn,
    toolCallId: z.string(),
    toolName: z.string(),
    durationMs: z.number().nonnegative(),
    success: z.boolean(),
    /** The tool's result text (what the model was given). */
    output: z.string().optional(),
    error: z.string().optional(),
  }),
);

export const StepEndEvent = z.lazy(() =>
  z.object({
    type: z.literal('step_end'),
    ...turn,
    step: AgentStep,
    /** True when the run was started with step control: the runtime waits for `respondToStep`. */
    awaitingDecision: z.boolean(),
  }),
);

export const PermissionRequestEvent = z.lazy(() =>
  z.object({
    type: z.literal('permission_request'),
    ...turn,
    requestId: z.string(),
    toolCallId: z.string(),
    tool: z.string(),
    description: z.string(),
    /** The exact command or path(s) the tool will touch. */
    command: z.string().optional(),
    paths: z.array(z.string()).optional(),
    /** The rule(s) an `always` or `session` answer would store, e.g. `Bash(npm run test:*)`. */
    suggestedRules: z.array(z.string()),
    choices: z.array(PermissionChoice),
  }),
);
export const PermissionResolvedEvent = z.lazy(() =>
  z.object({
    type: z.literal('permission_resolved'),
    ...turn,
    requestId: z.string(),
    outcome: z.enum(['allowed', 'denied', 'cancelled']),
    scope: PermissionScope.optional(),
  }),
);
export const DirectoryAccessRequestEvent = z.lazy(() =>
  z.object({
    type: z.literal('directory_access_request'),
    ...turn,
    requestId: z.string(),
    toolCallId: z.string(),
    path: z.string(),
    reason: z.string(),
  }),
);
export const DirectoryAccessResolvedEvent = z.lazy(() =>
  z.object({
    type: z.literal('directory_access_resolved'),
    ...turn,
    requestId: z.string(),
    outcome: z.enum(['allowed', 'denied', 'cancelled']),
  }),
);

/**
 * The run's open batch changed. Only what changed travels: `changes` holds the entries this update added or changed
 * (a new file goes to the end of the batch, a changed one keeps its place), `removed` the ids of entries that went away
 * (a file edited back to its original), `fileCount` the batch's size after the update. No contents: fetch them with
 * `getChangeContents` when a diff is shown, so the event bytes of a batch grow with its file count, not its file sizes.
 */
export const ChangeBatchUpdatedEvent = z.lazy(() =>
  z.object({
    type: z.literal('change_batch_updated'),
    ...run,
    batchId: z.string(),
    status: z.literal('open'),
    changes: z.array(Change),
    removed: z.array(z.string()),
    fileCount: z.number().int().nonnegative(),
  }),
);
/** The run ended with proposed changes; the batch (status `pending`, summaries only) waits for `decideChanges`. */
export const ChangeBatchReadyEvent = z.lazy(() => z.object({ type: z.literal('change_batch_ready'), ...run, batch: ChangeBatch }));
export const ChangeBatchDecidedEvent = z.lazy(() =>
  z.object({
    type: z.literal('change_batch_decided'),
    ...base,
    batchId: z.string(),
    results: z.array(ChangeResult),
  }),
);
/** The model called an editor-hosted tool; answer with `respondToMcpInvocation` using the same request id. */
export const McpInvocationEvent = z.lazy(() =>
  z.object({
    type: z.literal('mcp_invocation'),
    ...turn,
    requestId: z.string(),
    toolCallId: z.string(),
    tool: z.string(),
    args: z.unknown(),
  }),
);
export const FileModifiedEvent = z.lazy(() =>
  z.object({
    type: z.literal('file_modified'),
    ...base,
    path: z.string(),
    changeId: z.string().optional(),
  }),
);
/**
 * The conversation before the current prompt was summarised to fit the model's context window (or by `/compact`):
 * `messagesBefore` messages became `messagesAfter`; token counts are estimates (four characters a token).
 */
export const ContextCompactedEvent = z.lazy(() =>
  z.object({
    type: z.literal('context_compacted'),
    ...base,
    runId: z.string().optional(),
    messagesBefore: z.number().int().nonnegative(),
    messagesAfter: z.number().int().nonnegative(),
    tokensBefore: z.number().int().nonnegative(),
    tokensAfter: z.number().int().nonnegative(),
  }),
);
/**
 * The set of tools the model can be offered changed: editor tools registered, an MCP server ready, failed, restarted
 * or changed its tool list. `reason` says what happened (a failed server's error and stderr tail); `tools` names every
 * tool now offered. `getToolsRegistry` has the details.
 */
export const ToolsChangedEvent = z.lazy(() => z.object({ type: z.literal('tools_changed'), ...base, reason: z.string(), tools: z.array(z.string()) }));
/**
 * The plan of a `plan-and-execute` run (or an accepted plan-mode plan) changed: `steps` is the whole plan with each
 * step's status; `change` says what changed (`created`, `step_started`, `step_done`, `step_failed`, `replanned`,
 * `skipped`) and `stepIndex` which step (0-based).
 */
export const PlanUpdateEvent = z.lazy(() =>
  z.object({
    type: z.literal('plan_update'),
    ...run,
    planId: z.string(),
    steps: z.array(PlanStep),
    change: z.enum(['created', 'step_started', 'step_done', 'step_failed', 'replanned', 'skipped']),
    stepIndex: z.number().int().nonnegative().optional(),
    /** How many times the run re-planned so far. */
    replans: z.number().int().nonnegative(),
  }),
);
/** In plan mode the model proposed a plan (`submit_plan`); answer with `respondToPlan` (accept or revise). */
export const PlanProposedEvent = z.lazy(() =>
  z.object({
    type: z.literal('plan_proposed'),
    ...run,
    planId: z.string(),
    steps: z.array(PlanStep),
    /** The plan as text (numbered steps), for a host that shows it as is. */
    text: z.string(),
  }),
);
/** A `reflexion` run's critique of a step whose tool failed; it goes into the context before the retry. */
export const ReflectionEvent = z.lazy(() =>
  z.object({
    type: z.literal('reflection'),
    ...run,
    turnId: z.string().optional(),
    /** 1 for the first critique of the run, up to `maxRetries`. */
    attempt: z.number().int().positive(),
    maxRetries: z.number().int().nonnegative(),
    critique: z.string(),
    /** The tools of the step that failed. */
    failedTools: z.array(z.string()),
  }),
);
export const SessionEndEvent = z.lazy(() => z.object({ type: z.literal('session_end'), ...base, duration: z.number().nonnegative() }));
export const ErrorEvent = z.lazy(() =>
  z.object({
    type: z.literal('error'),
    ...base,
    runId: z.string().optional(),
    code: z.enum(EventErrorCodes),
    error: z.string(),
    /** The failed tool call (code `tool_error`; its `tool_end` has `success: false` and the full error). */
    toolCallId: z.string().optional(),
    /** What the user can do about it. */
    remedy: z.string().optional(),
    /** The setting that fixes it, in machine terms (a host words it and offers the button). */
    fix: ErrorFix.optional(),
  }),
);

/**
 * A hook ran (README "Hooks"): `name` is the hook notification (`before_tool`, ...) or the filesystem hook
 * (`pre-prompt`, `post-prompt`); `exitCode` is null when it did not exit by itself (`error` says why: a timeout, not
 * executable, the sandbox cannot start); `blocked` when it stopped the prompt or the tool.
 */
export const HookRunEvent = z.lazy(() =>
  z.object({
    type: z.literal('hook'),
    ...base,
    runId: z.string().optional(),
    name: z.union([HookEventName, z.enum(['pre-prompt', 'post-prompt'])]),
    source: HookSource,
    command: z.string(),
    exitCode: z.number().int().nullable(),
    durationMs: z.number().nonnegative(),
    blocked: z.boolean(),
    error: z.string().optional(),
  }),
);
/** Yolo (unrestricted mode) turned on or off: by `setYolo` (`requested`) or because its timeout ran out (`expired`). */
export const YoloChangedEvent = z.lazy(() =>
  z.object({
    type: z.literal('yolo_changed'),
    ...base,
    active: z.boolean(),
    /** When a timed yolo ends by itself (ISO time). */
    expiresAt: z.string().optional(),
    reason: z.enum(['requested', 'expired']),
  }),
);
/** The provider throttled a request (HTTP 429); the runtime waits `retryAfterMs` and retries unless `willRetry` is false. */
export const RateLimitedEvent = z.lazy(() =>
  z.object({
    type: z.literal('rate_limited'),
    ...base,
    runId: z.string().optional(),
    provider: z.string(),
    /** The wait before the next attempt: the server's retry-after when it sent one, else the backoff. */
    retryAfterMs: z.number().nonnegative(),
    /** The attempt that was throttled (1 = the first request). */
    attempt: z.number().int().positive(),
    willRetry: z.boolean(),
  }),
);

export const AgentEvent = z.discriminatedUnion('type', [
  AgentStartEvent,
  AgentEndEvent,
  TurnStartEvent,
  TurnEndEvent,
  MessageStartEvent,
  MessageUpdateEvent,
  MessageEndEvent,
  ToolStartEvent,
  ToolUpdateEvent,
  ToolEndEvent,
  StepEndEvent,
  PermissionRequestEvent,
  PermissionResolvedEvent,
  DirectoryAccessRequestEvent,
  DirectoryAccessResolvedEvent,
  ChangeBatchUpdatedEvent,
  ChangeBatchReadyEvent,
  ChangeBatchDecidedEvent,
  ChangesRevertedEvent,
  McpInvocationEvent,
  FileModifiedEvent,
  SessionEndEvent,
  ErrorEvent,
  ContextCompactedEvent,
  ToolsChangedEvent,
  AutomodeIterationEvent,
  AutomodeCompleteEvent,
  AutomodeErrorEvent,
  LearningProgressEvent,
  PlanUpdateEvent,
  PlanProposedEvent,
  ReflectionEvent,
  HookRunEvent,
  YoloChangedEvent,
  RateLimitedEvent,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type AgentEventType = AgentEvent['type'];
export type EventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** The one notification method that carries events from runtime to host. */
export const EVENT_NOTIFICATION = 'event';
