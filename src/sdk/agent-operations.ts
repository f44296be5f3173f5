import type { DecideParams, DecisionKind, ParamsOf } from '../protocol/methods';
import type { DirectoryAccessScope, PermissionMode, PermissionScope } from '../protocol/records';
import type { RuntimeClient } from './client';
import type { DecisionOf } from './decide';
import { InvalidArgumentError } from './errors';

/**
 * The runtime-control operations of `Agent` (spec 001 §4.3), each one request through its client: answers to
 * permission and directory requests, change batches, modes, model and settings, tools, saved sessions, auto-mode,
 * skills, browser handoff and undo. Runs and their events are `Agent`'s own (./agent).
 */
export class AgentOperations {
  constructor(
    /** The low-level client, for the full runtime surface (change batches, editor tools, models...). */
    readonly client: RuntimeClient,
  ) {}

  allowPermission(requestId: string, scope: PermissionScope = 'once') {
    return this.client.permissionResponse({ requestId, allowed: true, scope });
  }

  denyPermission(requestId: string, scope: PermissionScope = 'once') {
    return this.client.permissionResponse({ requestId, allowed: false, scope });
  }

  /** Denies the request and tells the model what to do instead. */
  suggestPermissionAlternative(requestId: string, alternative: string) {
    if (typeof alternative !== 'string' || alternative.trim() === '') {
      return Promise.reject(new InvalidArgumentError('alternative must be a non-empty instruction for the model'));
    }
    return this.client.permissionResponse({ requestId, allowed: false, alternative });
  }

  /** Lets the tool reach the directory: `once` (default) for this access, `session` for the rest of the session. */
  allowDirectory(requestId: string, scope: DirectoryAccessScope = 'once') {
    return this.client.respondToDirectoryAccess({ requestId, allowed: true, scope });
  }

  /** Refuses the directory; the model is told to stay inside the workspace. */
  denyDirectory(requestId: string) {
    return this.client.respondToDirectoryAccess({ requestId, allowed: false });
  }

  /** Answers a permission request with the protocol's full params (`allowed`/`decision`, `scope`, `alternative`). */
  permissionResponse(params: ParamsOf<'permissionResponse'>) {
    return this.client.permissionResponse(params);
  }

  /** Confirms a permission request was received (e.g. shown to a user); grants nothing. */
  acknowledgePermission(requestId: string) {
    return this.client.acknowledgePermission(requestId);
  }

  /** Answers a directory access request with the protocol's full params (`allowed`, `scope`, `reason`). */
  respondToDirectoryAccess(params: ParamsOf<'respondToDirectoryAccess'>) {
    return this.client.respondToDirectoryAccess(params);
  }

  /** Confirms a directory access request was received; grants nothing. */
  acknowledgeDirectoryAccess(requestId: string) {
    return this.client.acknowledgeDirectoryAccess(requestId);
  }

  /** Decides a pending change batch (one a run left `undecided`): `accept_all`, `reject_all` or `accept_selected` + ids. */
  decideChanges(params: ParamsOf<'decideChanges'>) {
    return this.client.decideChanges(params);
  }

  /** Both sides of changes of a batch (`originalContent`, `proposedContent`), for a diff; large answers list the rest in `omitted`. */
  getChangeContents(params: ParamsOf<'getChangeContents'>) {
    return this.client.getChangeContents(params);
  }

  /**
   * Answers a `step_end { awaitingDecision: true }`. Runs with `stopWhen` are answered by the agent itself; this is for
   * hosts that drive step control on their own.
   */
  respondToStep(params: ParamsOf<'respondToStep'>) {
    return this.client.respondToStep(params);
  }

  /** Cancels the run in progress (as `run.abort()`) and any pending request; always answers. */
  abort() {
    return this.client.abort();
  }

  setPlanMode(enabled: boolean) {
    return this.client.setPlanMode(enabled);
  }

  setPermissionMode(mode: PermissionMode) {
    return this.client.setPermissionMode(mode);
  }

  /** Unrestricted (yolo) mode on or off; `timeoutMinutes` (positive) turns it off again after that long. */
  setYolo(params: ParamsOf<'setYolo'>) {
    return this.client.setYolo(params);
  }

  /**
   * Compatibility alias of `setYolo` (spec 001 §4.3); the same request.
   * @deprecated use `setYolo`.
   */
  setYoloCompat(params: ParamsOf<'setYolo'>) {
    return this.client.setYoloCompat(params);
  }

  /** Adds a shell hook for this session (see `RuntimeClient.addHook`); each run of it arrives as a `hook` event. */
  addHook(definition: ParamsOf<'addHook'>) {
    return this.client.addHook(definition);
  }

  setModel(model: string) {
    return this.client.setModel(model);
  }

  /**
   * Models the current (or named) provider offers, with the ones the chat cannot run marked unavailable. `config`
   * tries settings for this listing only (nothing is applied): a provider can be checked before it is saved.
   */
  listModels(provider?: string, config?: Record<string, unknown>) {
    return this.client.listModels(provider, config);
  }

  /** Overlays settings (the config file's shape) in memory, keeping the conversation; each call replaces the last. */
  configure(config: Record<string, unknown>) {
    return this.client.configure(config);
  }

  /**
   * Every tool the model can be offered: name, source (builtin, editor, mcp), description, JSON schema, permission rule,
   * enabled or not and why; plus each MCP server's state. Listen for `tools_changed` to hear of changes.
   */
  getToolsRegistry() {
    return this.client.getToolsRegistry();
  }

  /** Registers tools the host serves (the model sees `editor_<name>`); answer their calls with `respondToMcpInvocation`. */
  setEditorMcpTools(tools: ParamsOf<'setEditorMcpTools'>['tools']) {
    return this.client.setEditorMcpTools(tools);
  }

  /** Exactly one answer per `mcp_invocation` request id: `{ success: true, result }` or `{ success: false, error }`. */
  respondToMcpInvocation(params: ParamsOf<'respondToMcpInvocation'>) {
    return this.client.respondToMcpInvocation(params);
  }

  /** A typed decision (`noul`, `choice` or `score`) from the hosted decisions model, with probabilities. */
  decide<K extends DecisionKind>(params: DecideParams & { kind: K }): Promise<DecisionOf<K>> {
    return this.client.decide(params);
  }

  getState() {
    return this.client.getState();
  }

  getMessages() {
    return this.client.getMessages();
  }

  /** A rough token count of what the next model request would send, and the model's context window when known. */
  getContextUsage() {
    return this.client.getContextUsage();
  }

  /** Clears the conversation (a pending change batch is kept) and starts a new session id. */
  reset() {
    return this.client.reset();
  }

  /** A page of saved sessions, newest first (`{ page, pageSize, cwd?, allWorkspaces? }`); this folder's by default. */
  getHistory(params: ParamsOf<'getHistory'> = {}) {
    return this.client.getHistory(params);
  }

  /** A saved session with its messages, errors and undecided change batch. */
  getSession(sessionId: string) {
    return this.client.getSession({ sessionId });
  }

  /** Continues a saved session: `{ attached: true }` or `{ attached: false, reason }`; never a different session. */
  attachSession(sessionId: string) {
    return this.client.attachSession({ sessionId });
  }

  /** Context compaction on or off: older turns are summarised before a request that would not fit (`context_compacted`). */
  setContextCompact(enabled: boolean) {
    return this.client.setContextCompact(enabled);
  }

  /**
   * Auto-mode: works toward `prompt` in iterations (each a full run) until the model declares the goal met or
   * `maxIterations` ran; answers `{ sessionId }` at once. With `useWorktree` the work happens on a new git branch
   * (`agentcli/auto-<id>`) and its diff is offered at the end as one change batch. Events: `automode_iteration`,
   * `automode_complete`, `automode_error` (see `agent.client.onEvent`).
   */
  startAutomode(params: ParamsOf<'startAutomode'>) {
    return this.client.startAutomode(params);
  }

  /** `{ active, state, iteration, maxIterations, startedAt, worktree?, branch?, ... }`. */
  getAutomodeStatus() {
    return this.client.getAutomodeStatus();
  }

  /** Pauses auto-mode at the next iteration boundary. */
  pauseAutomode() {
    return this.client.pauseAutomode();
  }

  resumeAutomode() {
    return this.client.resumeAutomode();
  }

  /** Cancels auto-mode, aborting the iteration under way. */
  cancelAutomode() {
    return this.client.cancelAutomode();
  }

  /** The auto-mode log: each iteration's summary, tool calls with results, and errors. */
  getAutomodeLog() {
    return this.client.getAutomodeLog();
  }

  /** The skills `skills` can name: `{ name, scope, path, description, learned }`, project first. */
  listSkills() {
    return this.client.listSkills();
  }

  /**
   * Skills recommended for this project from its signals (dependencies, languages by file count, test framework,
   * config files, existing skills): `{ name, title, score, reasons, installed }`, best first.
   */
  getLearningRecommendations() {
    return this.client.getLearningRecommendations();
  }

  /**
   * Writes or refreshes the learned skills (`learned-<name>/SKILL.md`) in the project's (default) or the user's skills
   * folder; skills without the prefix and learned files edited by hand are left alone. Events: `learning_progress`.
   */
  updateLearnedSkills(params: ParamsOf<'updateLearnedSkills'> = {}) {
    return this.client.updateLearnedSkills(params);
  }

  /**
   * Starts a run in which the model drafts `<scope dir>/skills/<name>/SKILL.md` from the repository; the file comes as
   * a change batch to review (`change_batch_ready`, then `decideChanges`). Answers `{ runId, path }`.
   */
  generateSkill(params: ParamsOf<'generateSkill'>) {
    return this.client.generateSkill(params);
  }

  /**
   * Browser handoff: `{ token, url, expiresAt }` for a page on 127.0.0.1 that continues this live session (transcript,
   * streamed events, prompts, permission and batch decisions). The token is single-use and short-lived (5 minutes by default).
   */
  createBrowserHandoff(params: ParamsOf<'createBrowserHandoff'> = {}) {
    return this.client.createBrowserHandoff(params);
  }

  /** Takes over a session another runtime handed off (it releases it): `{ attached: true }` or `{ attached: false, reason }`. */
  attachBrowserHandoff(params: ParamsOf<'attachBrowserHandoff'>) {
    return this.client.attachBrowserHandoff(params);
  }

  /** Takes over the newest unexpired, unused handoff of this user in this folder (any folder with `allWorkspaces`). */
  attachLatestBrowserHandoff(params: ParamsOf<'attachLatestBrowserHandoff'> = {}) {
    return this.client.attachLatestBrowserHandoff(params);
  }

  /** Deletes a saved session: `{ deleted: true }` or `{ deleted: false, reason }` (not_found, busy, current). */
  deleteSession(sessionId: string) {
    return this.client.deleteSession({ sessionId });
  }

  /** The applied change batches of this session kept for undo, newest first (`undoable` says whether a file is left to undo). */
  listAppliedChanges() {
    return this.client.listAppliedChanges();
  }

  /**
   * Undoes an applied batch: `{}` the newest one with a file left to undo, or `{ batchId, paths }`. Per file `reverted`,
   * `stale` (the file changed since it was applied; kept as it is), `failed` (e.g. a symlink on its path) or `skipped`.
   */
  undoChanges(params: ParamsOf<'undoChanges'> = {}) {
    return this.client.undoChanges(params);
  }

  /** Summarises the whole conversation now (between runs); `compacted: false` when there was nothing new to summarise. */
  compactContext() {
    return this.client.compactContext();
  }
}
