import type { DecideParams, DecisionKind, ParamsOf, ResultOf } from '../protocol/methods';
import { LOOP_TYPES, type LoopType, type PermissionMode } from '../protocol/records';
import { decide, type DecisionOf } from './decide';
import type { PromptResult } from './prompt-run';
import { RuntimeConnection } from './runtime-connection';

export type { PromptOptions, PromptResult, PromptHandle } from './prompt-run';
export type { ExitInfo } from './runtime-process';
export { SDK_VERSION, DEFAULT_TIMEOUT_MS, DEFAULT_STOP_GRACE_MS, type InitializeResult, type RuntimeClientOptions } from './runtime-connection';

/** The loop strategies of spec 001 §1 (the protocol's list); `react` is the default. */
export { LOOP_TYPES, type LoopType };
export type RunResultLike = PromptResult;

/**
 * The low-level client: one runtime subprocess (`agentcli --mode rpc`), its JSON-RPC connection and the
 * typed operations of the protocol. `Agent` builds on it; hosts needing the full surface use it directly.
 */
export class RuntimeClient extends RuntimeConnection {
  /** Cancels the active run and its pending permission requests; always answers. */
  abort(): Promise<ResultOf<'abort'>> {
    return this.request('abort', {});
  }

  /** Same as `abort()`. */
  interrupt(): Promise<ResultOf<'abort'>> {
    return this.abort();
  }

  permissionResponse(p: ParamsOf<'permissionResponse'>) {
    return this.request('permissionResponse', p);
  }
  acknowledgePermission(requestId: string) {
    return this.request('acknowledgePermission', { requestId });
  }
  respondToDirectoryAccess(p: ParamsOf<'respondToDirectoryAccess'>) {
    return this.request('respondToDirectoryAccess', p);
  }
  acknowledgeDirectoryAccess(requestId: string) {
    return this.request('acknowledgeDirectoryAccess', { requestId });
  }
  decideChanges(p: ParamsOf<'decideChanges'>) {
    return this.request('decideChanges', p);
  }
  /**
   * Both sides of changes of the open or pending batch (batch events carry summaries only). One answer is bounded:
   * ask again for the ids listed in `omitted`.
   */
  getChangeContents(p: ParamsOf<'getChangeContents'>) {
    return this.request('getChangeContents', p);
  }
  /**
   * A typed decision (`noul`, `choice` or `score`) from the hosted decisions model, with the probability of
   * every answer. Params are checked per kind before sending (`InvalidDecisionParamsError`).
   */
  decide<K extends DecisionKind>(params: DecideParams & { kind: K }): Promise<DecisionOf<K>> {
    return decide(this, params);
  }
  respondToStep(p: ParamsOf<'respondToStep'>) {
    return this.request('respondToStep', p);
  }
  setPlanMode(enabled: boolean) {
    return this.request('setPlanMode', { enabled });
  }
  /** Answers a `plan_proposed`: accept runs the plan (plan mode ends), revise sends `note` and stays in plan mode. */
  respondToPlan(p: ParamsOf<'respondToPlan'>) {
    return this.request('respondToPlan', p);
  }
  setPermissionMode(mode: PermissionMode) {
    return this.request('setPermissionMode', { mode });
  }
  setYolo(p: ParamsOf<'setYolo'>) {
    return this.request('setYolo', p);
  }
  /**
   * Compatibility alias of `setYolo` (spec 001 §4.3, for code written against older SDKs); the same request.
   * @deprecated use `setYolo`.
   */
  setYoloCompat(p: ParamsOf<'setYolo'>) {
    return this.setYolo(p);
  }
  /**
   * Adds a shell hook for this session (`{ event, command, matcher?, timeoutMs? }`): it runs on that hook
   * notification with the notification as JSON on stdin; a `before_tool` hook exiting 2 blocks the tool.
   */
  addHook(definition: ParamsOf<'addHook'>) {
    return this.request('addHook', definition);
  }
  setModel(model: string) {
    return this.request('setModel', { model });
  }
  getState() {
    return this.request('getState', {});
  }
  getMessages() {
    return this.request('getMessages', {});
  }
  getContextUsage() {
    return this.request('getContextUsage', {});
  }
  reset() {
    return this.request('reset', {});
  }
  /** A page of saved sessions, newest first: this folder's unless `cwd` names another or `allWorkspaces` is true. */
  getHistory(p: ParamsOf<'getHistory'> = {}) {
    return this.request('getHistory', p);
  }
  /** A saved session with its messages (a protocol error with code UnknownId when there is none). */
  getSession(p: ParamsOf<'getSession'>) {
    return this.request('getSession', p);
  }
  /**
   * Continues a saved session of this folder: `{ attached: true, ... }` (the next prompt carries its history; an
   * undecided change batch is pending again) or `{ attached: false, reason }`, never a different session.
   */
  attachSession(p: ParamsOf<'attachSession'>) {
    return this.request('attachSession', p);
  }
  /**
   * Browser handoff: a short-lived, single-use `token` (5 minutes by default) and the `url` of a page on 127.0.0.1 that
   * attaches to this runtime's live session with it. A credential: never log it. The page works while this runtime lives.
   */
  createBrowserHandoff(p: ParamsOf<'createBrowserHandoff'> = {}) {
    return this.request('createBrowserHandoff', p);
  }
  /** Takes over the session another runtime handed off: `{ attached: true, sessionId }` or `{ attached: false, reason, message }`. */
  attachBrowserHandoff(p: ParamsOf<'attachBrowserHandoff'>) {
    return this.request('attachBrowserHandoff', p);
  }
  /** Takes over the newest unexpired, unused handoff of this user (this folder's unless `allWorkspaces`). */
  attachLatestBrowserHandoff(p: ParamsOf<'attachLatestBrowserHandoff'> = {}) {
    return this.request('attachLatestBrowserHandoff', p);
  }
  /** Deletes a saved session: `{ deleted: true }` or `{ deleted: false, reason }` (not_found, busy, or current: this runtime's own). */
  deleteSession(p: ParamsOf<'deleteSession'>) {
    return this.request('deleteSession', p);
  }
  /** The session's applied change batches kept for undo, newest first, each file `undoable`, `undone` or `not_undoable` (with the reason). */
  listAppliedChanges() {
    return this.request('listAppliedChanges', {});
  }
  /**
   * Reverts an applied batch (default: the newest with a file left to undo), all its files or those of `paths`; per file
   * `reverted`, `stale` (changed since it was applied: kept), `failed` or `skipped`. Emits `changes_reverted`.
   */
  undoChanges(p: ParamsOf<'undoChanges'> = {}) {
    return this.request('undoChanges', p);
  }
  /** Summarises the whole conversation now (between runs); `compacted: false` when there is nothing new to summarise. */
  compactContext() {
    return this.request('compactContext', {});
  }
  /** Context compaction on or off: older turns are summarised before a request that would not fit (`context_compacted`). */
  setContextCompact(enabled: boolean) {
    return this.request('setContextCompact', { enabled });
  }
  /**
   * Auto-mode (spec 001 §3.3): iterations toward `prompt` until the model declares it met or `maxIterations`; answers
   * `{ sessionId }` at once. `useWorktree`: the work happens on a new git branch and is offered as one change batch.
   * Progress: `automode_iteration`, `automode_complete`, `automode_error` events.
   */
  startAutomode(p: ParamsOf<'startAutomode'>) {
    return this.request('startAutomode', p);
  }
  getAutomodeStatus() {
    return this.request('getAutomodeStatus', {});
  }
  /** Pause at the next iteration boundary. */
  pauseAutomode() {
    return this.request('pauseAutomode', {});
  }
  resumeAutomode() {
    return this.request('resumeAutomode', {});
  }
  /** Cancel: aborts the iteration under way; the run ends `cancelled`. */
  cancelAutomode() {
    return this.request('cancelAutomode', {});
  }
  /** Each iteration's summary, tool calls with results, and errors. */
  getAutomodeLog() {
    return this.request('getAutomodeLog', {});
  }
  /** The project's and the user's skills (`--skill` / `skills` names), project first. */
  listSkills() {
    return this.request('listSkills', {});
  }
  /** Skills the project's signals call for, each with its score (0..1), reasons and whether it is installed. */
  getLearningRecommendations() {
    return this.request('getLearningRecommendations', {});
  }
  /** Writes or refreshes the `learned-*` skills (project or user scope); progress: `learning_progress` events. */
  updateLearnedSkills(p: ParamsOf<'updateLearnedSkills'> = {}) {
    return this.request('updateLearnedSkills', p);
  }
  /** A run that drafts `<scope dir>/skills/<name>/SKILL.md`, proposed as a change batch; answers `{ runId, path }`. */
  generateSkill(p: ParamsOf<'generateSkill'>) {
    return this.request('generateSkill', p);
  }
  /** `config`: settings to try for this listing only (a dry run of `configure`; nothing is applied). */
  listModels(provider?: string, config?: Record<string, unknown>) {
    return this.request('listModels', { ...(provider === undefined ? {} : { provider }), ...(config === undefined ? {} : { config }) });
  }
  configure(config: Record<string, unknown>) {
    return this.request('configure', { config });
  }
  /** Every tool the model can be offered (built-in, editor, MCP) and the MCP servers' states; `tools_changed` tells of changes. */
  getToolsRegistry() {
    return this.request('getToolsRegistry', {});
  }
  setEditorMcpTools(tools: ParamsOf<'setEditorMcpTools'>['tools']) {
    return this.request('setEditorMcpTools', { tools });
  }
  respondToMcpInvocation(p: ParamsOf<'respondToMcpInvocation'>) {
    return this.request('respondToMcpInvocation', p);
  }
}
