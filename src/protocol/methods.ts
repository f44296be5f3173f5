import { z } from 'zod';
import { MAX_CHANGE_CONTENTS_BYTES, MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH, MAX_YOLO_MINUTES } from './limits';
import {
  AttachFailureReason,
  ChangeBatch,
  ChangeContents,
  ChangeDecision,
  ChangeResult,
  DirectoryAccessScope,
  HistoryEntry,
  HistoryMessage,
  HunkSelection,
  PendingDirectoryAccess,
  PendingPermission,
  PermissionMode,
  PermissionScope,
  PromptContext,
  RecoveredApply,
  ResponseFormat,
  PlanStep,
  SandboxState,
} from './records';
import { automodeMethods } from './automode';
import { handoffMethods } from './handoff';
import { DecidedBatch, undoMethods } from './undo';
import { ErrorFix } from './errors';
import { learningMethods } from './learning';
import { HookDefinition, HookEventName } from './hooks';

export { MAX_CHANGE_CONTENTS_BYTES, MAX_EDITOR_SCHEMA_BYTES, MAX_EDITOR_SCHEMA_DEPTH, MAX_YOLO_MINUTES };

const Empty = z.object({}).strict();

/** Most entries one `getHistory` page holds. */
export const MAX_HISTORY_PAGE_SIZE = 200;

const Ok = z.object({ ok: z.literal(true) });

export const Capabilities = z.object({
  loopTypes: z.array(z.string()),
  tools: z.array(z.string()),
  stepControl: z.boolean(),
  changeBatches: z.boolean(),
  structuredOutput: z.boolean(),
  editorMcpTools: z.boolean(),
});
export type Capabilities = z.infer<typeof Capabilities>;

/** One tool in `getToolsRegistry`. */
export const ToolRegistryEntry = z.object({
  /** The name the model sees (`read_file`, `editor_<name>`, `mcp__<server>__<tool>`). */
  name: z.string(),
  source: z.enum(['builtin', 'editor', 'mcp']),
  /** The MCP server (source `mcp`). */
  server: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  /** The permission rule tool that covers it: `Read`, `Write`, `Bash`, `editor_<name>`, `Mcp(<server>:<tool>)`. */
  permissionRule: z.string(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  /** Why it is not enabled (plan mode, a server that is not running, an unusable schema). */
  disabledReason: z.string().optional(),
});
export type ToolRegistryEntry = z.infer<typeof ToolRegistryEntry>;

/** A configured MCP server in `getToolsRegistry`. */
export const McpServerStatus = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'streamable-http', 'sse']).optional(),
  state: z.enum(['starting', 'ready', 'failed', 'disabled']),
  error: z.string().optional(),
  /** The last lines a local server wrote to stderr before it failed. */
  stderrTail: z.string().optional(),
  toolCount: z.number().int().nonnegative(),
  restarts: z.number().int().nonnegative(),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

export const YoloState = z.object({ active: z.boolean(), expiresAt: z.string().optional() });

export const RuntimeState = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  status: z.enum(['idle', 'running']),
  runId: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  permissionMode: PermissionMode,
  planMode: z.boolean(),
  yolo: YoloState,
  pendingBatch: ChangeBatch.nullable(),
  pendingPermissions: z.array(PendingPermission),
  pendingDirectoryAccess: z.array(PendingDirectoryAccess),
  messageCount: z.number().int().nonnegative(),
  /** How run_command is isolated; `available: false` with `reason` (and the fix) when the sandbox cannot start. */
  sandbox: SandboxState.optional(),
  /** The plan plan mode proposed (`plan_proposed`) that waits for `respondToPlan`, e.g. for a panel opened later. */
  proposedPlan: z.object({ planId: z.string(), runId: z.string(), steps: z.array(PlanStep) }).optional(),
});
export type RuntimeState = z.infer<typeof RuntimeState>;

/** Typed decision kinds answered by the decisions model: yes/no (`noul`), one of given options, a score on a scale. */
export const DecisionKind = z.enum(['noul', 'choice', 'score']);
export type DecisionKind = z.infer<typeof DecisionKind>;

/** A probability in [0, 1]. */
const Probability = z.number().min(0).max(1);

/**
 * A typed decision request. `noul`: a yes/no question. `choice`: `options` (2 to 20 distinct) are required.
 * `score`: an integer on `scale` (default 1 to 5, at most 101 values).
 */
export const DecideParams = z
  .object({
    kind: DecisionKind,
    question: z.string().trim().min(1, 'question must not be empty'),
    options: z.array(z.string().trim().min(1, 'options must not be empty')).optional(),
    scale: z.object({ min: z.number().int(), max: z.number().int() }).optional(),
    /** Background the model should weigh (a diff summary, a changelog, a ticket). */
    context: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'choice') {
      const options = p.options ?? [];
      if (options.length < 2 || options.length > 20) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'a choice needs 2 to 20 options' });
      } else if (new Set(options).size !== options.length) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'options must be distinct' });
      }
    } else if (p.options !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: `options are only for kind "choice" (kind is "${p.kind}")` });
    }
    if (p.scale !== undefined) {
      if (p.kind !== 'score') {
        ctx.addIssue({ code: 'custom', path: ['scale'], message: `scale is only for kind "score" (kind is "${p.kind}")` });
      } else if (p.scale.max <= p.scale.min || p.scale.max - p.scale.min > 100) {
        ctx.addIssue({ code: 'custom', path: ['scale'], message: 'scale needs min < max and at most 101 values' });
      }
    }
  });
export type DecideParams = z.input<typeof DecideParams>;

/** A typed answer with the probability of every possible answer (keys: `yes`/`no`, the options, or the scores). */
export const DecisionResult = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('noul'),
    model: z.string(),
    answer: z.enum(['yes', 'no']),
    probabilities: z.object({ yes: Probability, no: Probability }),
  }),
  z.object({ kind: z.literal('choice'), model: z.string(), answer: z.string(), probabilities: z.record(z.string(), Probability) }),
  z.object({ kind: z.literal('score'), model: z.string(), answer: z.number().int(), probabilities: z.record(z.string(), Probability) }),
]);
export type DecisionResult = z.infer<typeof DecisionResult>;

const MODEL_FORMAT = 'write <provider>/<model> (e.g. "ggufserver/qwen") or a bare model id of the current provider';

/** `setModel`'s selector: not blank, and both halves of a `<provider>/<model>` present. */
const ModelSelectorParam = z
  .string()
  .trim()
  .min(1, `model must not be empty: ${MODEL_FORMAT}`)
  .superRefine((s, ctx) => {
    if (s.startsWith('/')) ctx.addIssue({ code: 'custom', message: `the provider before "/" is missing in "${s}": ${MODEL_FORMAT}` });
    else if (s.endsWith('/')) ctx.addIssue({ code: 'custom', message: `the model after "/" is missing in "${s}": ${MODEL_FORMAT}` });
  });

/**
 * Every request a host may send, with its params and result schemas.
 * Method names are the spec's runtime operations in camelCase.
 */
export const methods = {
  initialize: {
    params: z.object({
      protocolVersion: z.string(),
      clientInfo: z.object({ name: z.string(), version: z.string() }).optional(),
    }),
    result: z.object({
      protocolVersion: z.string(),
      runtimeVersion: z.string(),
      sessionId: z.string(),
      cwd: z.string(),
      provider: z.string(),
      model: z.string(),
      permissionMode: PermissionMode,
      capabilities: Capabilities,
      /**
       * Change batches that a runtime killed mid-apply left in this workspace, rolled back at this start (or found
       * completed); absent when there were none.
       */
      recoveredApplies: z.array(RecoveredApply).optional(),
    }),
  },
  /** Start a run. Answers as soon as the run is accepted; progress and the end arrive as events. */
  prompt: {
    params: z.object({
      message: z.string().min(1, 'message must not be empty'),
      context: z.array(PromptContext).optional(),
      /** Wait for `respondToStep` after each completed tool step (SDK `stopWhen`). */
      stepControl: z.boolean().optional(),
      maxIterations: z.number().int().positive().optional(),
      responseFormat: ResponseFormat.optional(),
      /**
       * Prior messages that start a fresh conversation before this prompt (SDK `Runner.run` with a pre-built
       * `Session`): `user`, `assistant` (with `toolCalls`) and `tool` messages, every tool call answered. Refused
       * (InvalidParams) once the conversation has messages: call `reset` first.
       */
      history: z.array(HistoryMessage.extend({ role: z.enum(['user', 'assistant', 'tool']) })).optional(),
    }),
    result: z.object({ runId: z.string() }),
  },
  /** Cancel the active run (HTTP request, commands, pending approvals). Always answers. */
  abort: { params: Empty, result: z.object({ aborted: z.boolean(), runId: z.string().optional() }) },
  permissionResponse: {
    params: z
      .object({
        requestId: z.string().min(1),
        allowed: z.boolean().optional(),
        decision: z.enum(['allow', 'deny']).optional(),
        scope: PermissionScope.optional(),
        /** Deny and tell the model what to do instead. */
        alternative: z.string().min(1).optional(),
      })
      .refine((p) => p.allowed !== undefined || p.decision !== undefined || p.alternative !== undefined, {
        message: 'give one of allowed, decision or alternative',
        path: ['allowed'],
      })
      .refine((p) => p.allowed === undefined || p.decision === undefined || p.allowed === (p.decision === 'allow'), {
        message: '"allowed" and "decision" disagree: give one of them (decision is the spelling of SDKs such as Python\'s)',
        path: ['decision'],
      })
      .refine((p) => p.alternative === undefined || (p.allowed !== true && p.decision !== 'allow'), {
        message: 'an alternative is a denial: leave out allowed: true / decision: "allow"',
        path: ['alternative'],
      }),
    result: Ok,
  },
  acknowledgePermission: { params: z.object({ requestId: z.string().min(1) }), result: Ok },
  respondToDirectoryAccess: {
    params: z.object({
      requestId: z.string().min(1),
      allowed: z.boolean(),
      scope: DirectoryAccessScope.optional(),
      /** Why it was denied, told to the model (default: the user denied it). */
      reason: z.string().max(500).optional(),
    }),
    result: Ok,
  },
  acknowledgeDirectoryAccess: { params: z.object({ requestId: z.string().min(1) }), result: Ok },
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
  /** Host's answer to a `step_end` with `awaitingDecision`. */
  respondToStep: {
    params: z.object({
      runId: z.string().min(1),
      stepNumber: z.number().int().positive(),
      decision: z.enum(['continue', 'stop']),
      reason: z.string().optional(),
    }),
    result: Ok,
  },
  setPlanMode: { params: z.object({ enabled: z.boolean() }), result: z.object({ planMode: z.boolean() }) },
  /**
   * The answer to a `plan_proposed`: `accept` leaves plan mode and starts a run executing the plan step by step
   * (`plan_update` events); `revise` sends `note` as the next user message and stays in plan mode. Both answer the
   * new run's id.
   */
  respondToPlan: {
    params: z
      .object({ planId: z.string().min(1), decision: z.enum(['accept', 'revise']), note: z.string().optional() })
      .refine((p) => p.decision !== 'revise' || (p.note?.trim() ?? '') !== '', {
        message: 'revise needs a note saying what to change',
        path: ['note'],
      }),
    result: z.object({ runId: z.string() }),
  },
  setPermissionMode: { params: z.object({ mode: PermissionMode }), result: z.object({ permissionMode: PermissionMode }) },
  /** `timeoutMinutes` (at most MAX_YOLO_MINUTES) turns yolo off again after that long; without it yolo stays on. */
  setYolo: {
    params: z.object({
      enabled: z.boolean(),
      timeoutMinutes: z
        .number()
        .positive('timeoutMinutes must be positive')
        .max(MAX_YOLO_MINUTES, `timeoutMinutes must be at most ${MAX_YOLO_MINUTES} (7 days); leave it out to keep yolo on until it is turned off`)
        .optional(),
    }),
    result: z.object({ yolo: YoloState }),
  },
  /**
   * `<provider>/<model>` switches both; a bare id switches the model of the current provider. A model id that itself
   * contains `/` needs its provider in front (`vendorapi/org/model`).
   */
  setModel: {
    params: z.object({ model: ModelSelectorParam }),
    result: z.object({ provider: z.string(), model: z.string() }),
  },
  /**
   * Add a shell hook for this session (README "Hooks"): it runs on `event` like one from a config file, until the
   * runtime exits. Answers how many hooks the session now has for that event.
   */
  addHook: { params: HookDefinition, result: z.object({ event: HookEventName, count: z.number().int().positive() }) },
  getState: { params: Empty, result: RuntimeState },
  getMessages: { params: Empty, result: z.object({ messages: z.array(HistoryMessage) }) },
  getContextUsage: {
    params: Empty,
    result: z.object({
      usedTokens: z.number().int().nonnegative(),
      contextWindow: z.number().int().positive().optional(),
      messageCount: z.number().int().nonnegative(),
      /** Context compaction: on or off, and the share of the window a request may reach before it compacts. */
      compaction: z.object({ enabled: z.boolean(), threshold: z.number() }).optional(),
    }),
  },
  /**
   * Context compaction on or off for this session: before a model request that would pass `compaction.threshold` of
   * the context window, older turns are summarised (event `context_compacted`), at most once per prompt.
   */
  setContextCompact: { params: z.object({ enabled: z.boolean() }), result: z.object({ enabled: z.boolean() }) },
  /** Models the current (or named) provider offers; ones the chat cannot run carry `available: false` and a reason. */
  listModels: {
    params: z.object({
      provider: z.string().optional(),
      /**
       * Settings to try (same shape as `configure`'s `config`): merged over the current configuration for this listing
       * only and never applied, so a host can check a provider before it saves anything (a dry run).
       */
      config: z.record(z.string(), z.unknown()).optional(),
    }),
    result: z.object({
      provider: z.string(),
      current: z.string(),
      models: z.array(
        z.object({
          id: z.string(),
          available: z.boolean(),
          reason: z.string().optional(),
          contextWindow: z.number().int().positive().optional(),
          maxOutput: z.number().int().positive().optional(),
          /** Catalog fields this version does not know, passed through unchanged. */
          extra: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
    }),
  },
  /**
   * Overlay settings on the loaded config, in memory only (never written to a file), keeping the conversation.
   * Same shape as the config file; secrets such as API keys may be passed here. Each call replaces the previous
   * overlay, so a setting left out falls back to the config files.
   */
  configure: {
    params: z.object({ config: z.record(z.string(), z.unknown()) }),
    result: z.object({ provider: z.string(), model: z.string() }),
  },
  /**
   * Register tools hosted by the editor; the model sees them as `editor_<name>`. Replaces the previous set. Each
   * `inputSchema` must have `"type": "object"` at the top and stay within MAX_EDITOR_SCHEMA_DEPTH levels and
   * MAX_EDITOR_SCHEMA_BYTES; otherwise the call is refused (-32602) and the previous set stays.
   */
  setEditorMcpTools: {
    params: z.object({
      tools: z.array(
        z.object({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,48}$/, 'tool names use letters, digits, _ and - (max 48)'),
          description: z.string(),
          inputSchema: z.record(z.string(), z.unknown()),
        }),
      ),
    }),
    result: z.object({ registered: z.array(z.string()) }),
  },
  /**
   * Every tool the model can be offered: built-in, editor (`setEditorMcpTools`) and MCP server tools, each with its
   * JSON schema, the permission rule that names it, and whether it is enabled (and why not); plus each configured MCP
   * server's state (a failed one with its error and stderr tail). `tools_changed` tells when this changes.
   */
  getToolsRegistry: { params: Empty, result: z.object({ tools: z.array(ToolRegistryEntry), servers: z.array(McpServerStatus) }) },
  /** Exactly one answer per `mcp_invocation` request id: success with a result, or failure with an error. */
  respondToMcpInvocation: {
    params: z
      .object({ requestId: z.string().min(1), success: z.boolean(), result: z.string().optional(), error: z.string().optional() })
      .refine((p) => (p.success ? p.result !== undefined && p.error === undefined : p.error !== undefined), {
        message: 'a success carries a result and no error; a failure carries an error',
        path: ['success'],
      }),
    result: Ok,
  },
  /** Ask the hosted decisions model (serviceai, model `weka`) a typed question; independent of the chat's provider. */
  decide: { params: DecideParams, result: DecisionResult },
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
  /** Auto-mode (spec 001 §3.3/§4.3): see ./automode. */
  ...automodeMethods,
  /** Skills and learning (spec 001 §4.3): see ./learning. */
  ...learningMethods,
  /** Browser handoff (spec 001 §4.3): see ./handoff. */
  ...handoffMethods,
  /** Undoing applied change batches: see ./undo. */
  ...undoMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = z.input<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;
export const methodNames = Object.keys(methods) as MethodName[];

/**
 * The one reading of a `permissionResponse`: `allowed` (TypeScript) or `decision` (the spelling of other SDKs), and an
 * `alternative` is always a denial. The schema refuses answers where they disagree.
 */
export function permissionAllowed(p: { allowed?: boolean; decision?: 'allow' | 'deny'; alternative?: string }): boolean {
  if (p.alternative !== undefined) return false;
  return p.allowed ?? p.decision === 'allow';
}
