/**
 * The one typed message contract between the extension and the chat webview.
 * Both sides validate on receipt: use `safeParseToWebview` / `safeParseFromWebview` in a receiver (never throws),
 * or `parseToWebview` / `parseFromWebview` where an exception is wanted (throws MessageContractError).
 * Imports nothing from vscode or the DOM: the extension imports this file too.
 */
import * as z from '../../protocol/zod';
// Protocol files are imported one by one: the index also pulls in the Node-only transport.
import { ErrorFix } from '../../protocol/errors';
import { AgentEvent } from '../../protocol/events';
import { ErrorActionKinds } from './errorActions';
import { ChangeDecision, ChangeResult, DirectoryAccessScope, PendingDirectoryAccess, PendingPermission, PermissionChoice, PermissionMode, PlanStep, SandboxState } from '../../protocol/records';
import { MAX_FILE_SUGGESTIONS } from './limits';
import { BatchFile, ContextChip, TranscriptItem } from './transcriptItems';

export * from './transcriptItems';

const id = (what: string) => z.string().min(1, `${what} must be a non-empty string`);
export { MAX_FILE_SUGGESTIONS };

/** Provider, model and modes as the status area of the panel shows them. */
export const PanelState = z.lazy(() =>
  z.object({
    provider: z.string(),
    model: z.string(),
    permissionMode: PermissionMode,
    planMode: z.boolean(),
    yolo: z.object({ active: z.boolean(), expiresAt: z.string().optional() }),
    /** How run_command is isolated (from getState); absent until the runtime reported it. */
    sandbox: SandboxState.optional(),
    /** A run is active: the prompt box looks disabled and Stop is shown. */
    running: z.boolean(),
  }),
);
export type PanelState = z.infer<typeof PanelState>;

export const RuntimeStatus = z.lazy(() =>
  z
    .object({
      status: z.enum(['starting', 'ready', 'crashed', 'restarting']),
      /** Why it crashed (exit code/signal, spawn error). Required for `crashed`. */
      reason: z.string().optional(),
      /** The last lines the runtime wrote to stderr, oldest first. */
      stderrTail: z.array(z.string()).max(200).optional(),
      /** For `restarting`: the attempt number and the delay before it (automatic restart with backoff). */
      attempt: z.number().int().positive().optional(),
      retryInMs: z.number().int().nonnegative().optional(),
    })
    .refine((s) => s.status !== 'crashed' || (s.reason?.length ?? 0) > 0, {
      message: 'a crashed status needs a reason',
      path: ['reason'],
    }),
);
export type RuntimeStatus = z.infer<typeof RuntimeStatus>;

/** A change batch waiting for a decision, without file contents. */
export const BatchSummary = z.lazy(() =>
  z.object({
    batchId: id('batchId'),
    runId: z.string(),
    status: z.enum(['open', 'pending', 'decided']),
    files: z.array(BatchFile),
  }),
);
export type BatchSummary = z.infer<typeof BatchSummary>;
/** The context meter: the estimated tokens the next request sends, and the model's window when known. */
export const ContextUsage = z.lazy(() =>
  z.object({
    usedTokens: z.number().int().nonnegative(),
    contextWindow: z.number().int().positive().optional(),
  }),
);
export type ContextUsage = z.infer<typeof ContextUsage>;
/** The plan plan mode proposed that waits for Accept or Revise (getState().proposedPlan). */
export const ProposedPlanInfo = z.lazy(() => z.object({ planId: id('planId'), runId: z.string(), steps: z.array(PlanStep) }));
export type ProposedPlanInfo = z.infer<typeof ProposedPlanInfo>;
export type PendingPermissionInfo = z.infer<typeof PendingPermission>;
export type PendingDirectoryInfo = z.infer<typeof PendingDirectoryAccess>;

/**
 * `build()` once, on first use: the panel's page starts without constructing every message schema (zod builds each
 * node's methods as it is made: ~tens of ms of a panel's start for schemas a receiver needs only on its first message).
 */
function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

// ---------------------------------------------------------------- extension → webview

const toWebviewMessages = onFirstUse(() => ({
  /**
   * The full snapshot; sent in answer to `ready` and after a runtime restart. Replaces the webview's own transcript
   * (the extension's snapshot is the truth). Pending requests/batch not represented in `items` are added as cards.
   */
  init: z.object({
    type: z.literal('init'),
    /** The newest items only (a long chat shows at once); the panel asks for the older ones with `loadOlder`. */
    items: z.array(TranscriptItem),
    /** How many items come before `items`. */
    olderCount: z.number().int().nonnegative().default(0),
    state: PanelState,
    runtime: RuntimeStatus,
    pendingPermissions: z.array(PendingPermission).default([]),
    pendingDirectoryAccess: z.array(PendingDirectoryAccess).default([]),
    pendingBatch: BatchSummary.nullable().default(null),
    /** The proposed plan waiting for an answer; a plan card still shown as proposed without it is no longer waiting. */
    proposedPlan: ProposedPlanInfo.nullable().default(null),
    /** Chips to show above the prompt box (e.g. added while the panel was hidden). */
    context: z.array(ContextChip).default([]),
    /** The context meter; null until the runtime reported it. */
    contextUsage: ContextUsage.nullable().default(null),
  }),
  /** One runtime event, forwarded as is: deltas only, never the whole transcript. */
  event: z.object({ type: z.literal('event'), event: AgentEvent }),
  /** The answer to `loadOlder`: the items just before `beforeId` (oldest first), and how many are older still. */
  olderItems: z.object({ type: z.literal('olderItems'), beforeId: z.string(), items: z.array(TranscriptItem), olderCount: z.number().int().nonnegative() }),
  runtimeStatus: z.object({ type: z.literal('runtimeStatus'), runtime: RuntimeStatus }),
  state: z.object({ type: z.literal('state'), state: PanelState }),
  /** A selection or file chip added by a command ("Add selection to chat"); same id replaces the chip. */
  contextAdded: z.object({ type: z.literal('contextAdded'), chip: ContextChip }),
  /** Per-file results of `decideChanges` (also arrives as a `change_batch_decided` event; either is enough). */
  batchResult: z.object({ type: z.literal('batchResult'), batchId: id('batchId'), results: z.array(ChangeResult) }),
  /** The undecided batch's files with rejected hunks (the diff review's marks), replacing what was sent before. */
  batchHunks: z.object({
    type: z.literal('batchHunks'),
    batchId: id('batchId'),
    files: z.array(z.object({ changeId: z.string().min(1), kept: z.number().int().nonnegative(), total: z.number().int().positive() })),
  }),
  /**
   * The applied batches that can still be undone (`listAppliedChanges`): their cards offer Undo. Sent when it changes.
   * `unavailable`: why a batch the runtime keeps cannot be undone (by batch id). `listed`: the runtime was asked, so an
   * applied batch in neither list is no longer kept for undo (without a runtime nothing is known, and nothing is said).
   */
  undoable: z.object({
    type: z.literal('undoable'),
    batchIds: z.array(z.string()),
    unavailable: z.record(z.string(), z.string()).default({}),
    listed: z.boolean().default(false),
  }),
  /** Something the extension could not do. `promptId` marks that prompt failed and puts its text back in the box. */
  error: z.object({
    type: z.literal('error'),
    message: id('message'),
    remedy: z.string().optional(),
    /** The setting that fixes it: the error card shows its buttons. */
    fix: ErrorFix.optional(),
    promptId: z.string().optional(),
  }),
  focusInput: z.object({ type: z.literal('focusInput') }),
  /** `@` mentions of a sent prompt that were not attached (the error line says why). */
  mentionsRefused: z.object({ type: z.literal('mentionsRefused'), promptId: z.string().min(1), paths: z.array(z.string()) }),
  /** The runtime took the answer to a proposed plan (`planDecision`). */
  planAnswered: z.object({ type: z.literal('planAnswered'), planId: id('planId'), decision: z.enum(['accept', 'revise']) }),
  contextUsage: z.object({ type: z.literal('contextUsage'), usage: ContextUsage.nullable() }),
  /** The answer to `findFiles`: workspace-relative paths, best first; `error` when the files could not be listed. */
  fileMatches: z.object({
    type: z.literal('fileMatches'),
    requestId: z.number().int().nonnegative(),
    paths: z.array(z.string().min(1).max(4096)).max(MAX_FILE_SUGGESTIONS),
    error: z.string().optional(),
  }),
}));

export const ToWebview = z.lazy(() => {
  const m = toWebviewMessages();
  return z.discriminatedUnion('type', [
    m.init,
    m.event,
    m.olderItems,
    m.runtimeStatus,
    m.state,
    m.contextAdded,
    m.batchResult,
    m.batchHunks,
    m.undoable,
    m.error,
    m.focusInput,
    m.mentionsRefused,
    m.planAnswered,
    m.contextUsage,
    m.fileMatches,
  ]);
});
export type ToWebview = z.infer<typeof ToWebview>;
/** What a sender may pass (fields with defaults are optional). */
export type ToWebviewInput = z.input<typeof ToWebview>;

// ---------------------------------------------------------------- webview → extension

/** A button's answer: every permission choice but `alternative` (which is sent with its text). */
export const PermissionDecisionChoice = PermissionChoice.exclude(['alternative']);
export type PermissionDecisionChoice = z.infer<typeof PermissionDecisionChoice>;

const fromWebviewMessages = onFirstUse(() => ({
  /** The webview loaded (or reloaded): answer with `init`. */
  ready: z.object({ type: z.literal('ready') }),
  /** The user scrolled up to the oldest item shown: send the page before it (answered with `olderItems`). */
  loadOlder: z.object({ type: z.literal('loadOlder'), beforeId: z.string().min(1, 'loadOlder needs the id of the oldest item shown') }),
  sendPrompt: z.object({
    type: z.literal('sendPrompt'),
    /** Chosen by the webview; echoed in `error.promptId` if the prompt is refused. */
    promptId: id('promptId'),
    text: z.string().trim().min(1, 'the prompt is empty: type a message first').max(1_000_000, 'the prompt is longer than 1,000,000 characters'),
    context: z.array(ContextChip),
    /** Workspace-relative paths typed as `@path/to/file`; the extension resolves them into file context. */
    mentions: z.array(z.string().min(1)).default([]),
  }),
  abort: z.object({ type: z.literal('abort') }),
  newChat: z.object({ type: z.literal('newChat') }),
  /** `deny` with `alternative` = deny and tell the model what to do instead. */
  permissionDecision: z
    .object({
      type: z.literal('permissionDecision'),
      requestId: id('requestId'),
      choice: PermissionDecisionChoice,
      alternative: z.string().trim().min(1, 'the alternative is empty: describe what to do instead').optional(),
    })
    .refine((m) => m.alternative === undefined || m.choice === 'deny', {
      message: 'an alternative is only sent with choice "deny"',
      path: ['alternative'],
    }),
  /** The card is on screen: the extension calls acknowledgePermission. */
  permissionShown: z.object({ type: z.literal('permissionShown'), requestId: id('requestId') }),
  directoryDecision: z.object({
    type: z.literal('directoryDecision'),
    requestId: id('requestId'),
    allowed: z.boolean(),
    scope: DirectoryAccessScope.optional(),
  }),
  directoryShown: z.object({ type: z.literal('directoryShown'), requestId: id('requestId') }),
  /** Open the multi-file diff over the batch, or one file's diff when `changeId` is given. */
  reviewBatch: z.object({ type: z.literal('reviewBatch'), batchId: id('batchId'), changeId: z.string().min(1).optional() }),
  decideBatch: z
    .object({ type: z.literal('decideBatch'), batchId: id('batchId'), decision: ChangeDecision, changeIds: z.array(z.string().min(1)).optional() })
    .refine((m) => m.decision !== 'accept_selected' || (m.changeIds?.length ?? 0) > 0, {
      message: 'accept_selected needs at least one change id (or send pickBatchFiles to let the user choose)',
      path: ['changeIds'],
    }),
  /** The answer to a proposed plan: accept runs it, revise sends the note and stays in plan mode. */
  planDecision: z
    .object({ type: z.literal('planDecision'), planId: id('planId'), decision: z.enum(['accept', 'revise']), note: z.string().trim().max(100_000).optional() })
    .refine((m) => m.decision !== 'revise' || (m.note ?? '') !== '', { message: 'revise needs a note saying what to change', path: ['note'] }),
  /** Open the extension's multi-select quick pick over the batch's files ("Accept selected…"). */
  pickBatchFiles: z.object({ type: z.literal('pickBatchFiles'), batchId: id('batchId') }),
  /** The Undo button of an applied batch's card: the extension asks which files (when several) and reverts them. */
  undoBatch: z.object({ type: z.literal('undoBatch'), batchId: id('batchId') }),
  restartRuntime: z.object({ type: z.literal('restartRuntime') }),
  /** Fallback when navigator.clipboard is refused inside the webview. */
  copyText: z.object({ type: z.literal('copyText'), text: z.string().max(10_000_000) }),
  removeContext: z.object({ type: z.literal('removeContext'), chipId: id('chipId') }),
  /** Open a workspace-relative (or absolute) path in an editor; `line` is 1-based. */
  openFile: z.object({ type: z.literal('openFile'), path: id('path'), line: z.number().int().positive().optional() }),
  selectModel: z.object({ type: z.literal('selectModel') }),
  /** The header's history button: the extension opens its chat history pick. */
  openHistory: z.object({ type: z.literal('openHistory') }),
  /** The context meter's click: summarise the conversation now. */
  compactContext: z.object({ type: z.literal('compactContext') }),
  /** The prompt box's `@` suggestions: workspace files matching `query` (answered with `fileMatches`, same requestId). */
  findFiles: z.object({ type: z.literal('findFiles'), requestId: z.number().int().nonnegative(), query: z.string().max(500, 'the file query is longer than 500 characters') }),
  /** The webview hit a problem (e.g. an invalid message); the extension logs it to its output channel. */
  webviewError: z.object({ type: z.literal('webviewError'), message: z.string() }),
  /** An error card's button (errorActions.ts); the extension checks that the key names a setting of that kind. */
  errorAction: z.object({ type: z.literal('errorAction'), kind: z.enum(ErrorActionKinds), configKey: z.string().min(1).max(200) }),
}));

export const FromWebview = z.lazy(() => {
  const m = fromWebviewMessages();
  return z.discriminatedUnion('type', [
    m.ready,
    m.loadOlder,
    m.sendPrompt,
    m.abort,
    m.newChat,
    m.permissionDecision,
    m.permissionShown,
    m.directoryDecision,
    m.directoryShown,
    m.reviewBatch,
    m.decideBatch,
    m.pickBatchFiles,
    m.undoBatch,
    m.planDecision,
    m.restartRuntime,
    m.copyText,
    m.removeContext,
    m.openFile,
    m.selectModel,
    m.openHistory,
    m.compactContext,
    m.findFiles,
    m.webviewError,
    m.errorAction,
  ]);
});
export type FromWebview = z.infer<typeof FromWebview>;
export type FromWebviewInput = z.input<typeof FromWebview>;
export type FromWebviewOf<T extends FromWebview['type']> = Extract<FromWebview, { type: T }>;

// ---------------------------------------------------------------- validation

export class MessageContractError extends Error {
  constructor(
    message: string,
    /** The `type` field of the rejected message, when it had a string one. */
    readonly messageType: string | undefined,
  ) {
    super(message);
    this.name = 'MessageContractError';
  }
}

export type ParseResult<T> = { ok: true; message: T } | { ok: false; error: MessageContractError };

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
}

function safeParse<T>(schema: z.ZodType<T>, knownTypes: () => readonly string[], direction: string, raw: unknown): ParseResult<T> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    return { ok: false, error: new MessageContractError(`invalid message ${direction}: expected an object with a "type" field, got ${got}`, undefined) };
  }
  const type = (raw as { type?: unknown }).type;
  const known = knownTypes();
  if (typeof type !== 'string' || !known.includes(type)) {
    const shown = typeof type === 'string' ? `"${type}"` : 'missing';
    return {
      ok: false,
      error: new MessageContractError(`invalid message ${direction}: type is ${shown}; expected one of ${known.join(', ')}`, typeof type === 'string' ? type : undefined),
    };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  return { ok: false, error: new MessageContractError(`invalid "${type}" message ${direction}: ${describeIssues(parsed.error.issues)}`, type) };
}

const toWebviewTypes = onFirstUse(() => Object.keys(toWebviewMessages()));
const fromWebviewTypes = onFirstUse(() => Object.keys(fromWebviewMessages()));

export function safeParseToWebview(raw: unknown): ParseResult<ToWebview> {
  return safeParse(ToWebview, toWebviewTypes, 'to the webview', raw);
}
export function safeParseFromWebview(raw: unknown): ParseResult<FromWebview> {
  return safeParse(FromWebview, fromWebviewTypes, 'from the webview', raw);
}
/** Validates a message received by the webview; throws MessageContractError naming the bad field. */
export function parseToWebview(raw: unknown): ToWebview {
  const r = safeParseToWebview(raw);
  if (!r.ok) throw r.error;
  return r.message;
}
/** Validates a message received by the extension; throws MessageContractError naming the bad field. */
export function parseFromWebview(raw: unknown): FromWebview {
  const r = safeParseFromWebview(raw);
  if (!r.ok) throw r.error;
  return r.message;
}
