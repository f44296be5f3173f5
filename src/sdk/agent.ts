import type { EventOf } from '../protocol/events';
import type { DirectoryAccessScope, PermissionMode, PermissionScope } from '../protocol/records';
import { RuntimeClient, type InitializeResult, type RuntimeClientOptions } from './client';
import type { DecisionOf } from './decide';
import type { ChangeBatchCallback } from './change-batch';
import { answerDirectoryAccess, type DirectoryAccessCallback } from './directory-access';
import type { DecideParams, DecisionKind, ParamsOf } from '../protocol/methods';
import { RpcErrorCode } from '../protocol/errors';
import { SessionAttachError } from './saved-sessions';
import {
  InvalidArgumentError,
  PermissionCallbackError,
  ProtocolError,
  SdkError,
  RuntimeNotRunningError,
  StructuredOutputError,
  errorText,
} from './errors';
import { promptArgs } from './launch';
import { Run, type RunOptions, type RunResult } from './run';
import { normalizeStopWhen } from './step-control';
import {
  jsonPrompt,
  parseStructured,
  prepareSchema,
  repairPrompt,
  structuredOutputFailure,
  type StructuredOutputOptions,
} from './structured-output';

export type PermissionRequest = EventOf<'permission_request'>;

/** How long close() lets a run in progress end as aborted before stopping the runtime anyway. */
const CLOSE_ABORT_WAIT_MS = 2000;

/**
 * What `onPermissionRequest` answers: allow or deny (optionally with a scope), deny with an alternative for
 * the model, or `undefined` to leave the request open and answer later with `allowPermission`/`denyPermission`.
 */
export type PermissionDecision =
  | 'allow'
  | 'deny'
  | { allow: true; scope?: PermissionScope }
  | { allow: false; scope?: PermissionScope; alternative?: string }
  | undefined;

export interface AgentOptions
  extends Omit<RuntimeClientOptions, 'onTrace' | 'onStderr' | 'systemPrompt' | 'appendSystemPrompt' | 'model'> {
  /** Model override; else `SERVICE_MODEL` (from `env`, then this process), else the runtime's configuration. */
  model?: string;
  /** Short persona; appended (after `appendSystemPrompt`) to the system prompt. */
  instructions?: string;
  /** Replaces the default system prompt: inline text, or a path to a file (relative to `cwd`). */
  systemPrompt?: string;
  /** Appended to the default system prompt: inline text or a file path. */
  appendSystemPrompt?: string;
  permissionMode?: PermissionMode;
  /** Answers permission requests inline; throwing denies the request and fails the run. */
  onPermissionRequest?: (request: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>;
  /**
   * Answers requests to reach a directory outside the workspace (`directory_access_request`); throwing denies
   * the request and fails the run; `undefined` leaves it to `allowDirectory`/`denyDirectory`. Without this
   * callback the agent answers by itself so no run hangs: allowed once when the runtime's permission mode is
   * `unrestricted`, else denied (the model is told to stay inside the workspace; a note goes to `onTrace`/debug).
   */
  onDirectoryAccess?: DirectoryAccessCallback;
  /**
   * Decides the change batch a run leaves (its file edits, held until decided): `'accept_all'`, `'reject_all'`,
   * `{ decision: 'accept_selected', changeIds }`, or `undefined` to decide later with `decideChanges`. Throwing (or an
   * invalid answer) rejects the batch and the run rejects with `ChangeBatchCallbackError`. Without it, a run's batch is
   * applied when the runtime's permission mode is `unrestricted` (as the CLI's `--yolo`), else left undecided.
   * `RunResult.changes` tells what became of each change. A run's own `onChangeBatch` option overrides this one.
   */
  onChangeBatch?: ChangeBatchCallback;
  /**
   * Continue this saved session (see `getHistory`): its history goes with the next prompt. `Agent.create` rejects with
   * `SessionAttachError` (reason `not_found`, `busy`, `corrupt` or `other_workspace`) when it cannot.
   */
  sessionId?: string;
  /**
   * Answers plans proposed in plan mode (`setPlanMode(true)`): `'accept'` executes the plan, `{ revise: note }` asks for
   * another one, `undefined` leaves it to `respondToPlan`. The run an answer starts is queued after the proposing run;
   * `takePlanRuns()` hands those runs over. Throwing leaves the plan unanswered and fails the proposing run.
   */
  onPlan?: (plan: PlanProposal) => PlanDecision | Promise<PlanDecision>;
  onTrace?: RuntimeClientOptions['onTrace'];
  onStderr?: RuntimeClientOptions['onStderr'];
}

/** A plan the model proposed in plan mode (`plan_proposed`): its id, steps and text. */
export type PlanProposal = EventOf<'plan_proposed'>;
/** What `onPlan` answers: accept, revise with a note, or `undefined` to answer later with `respondToPlan`. */
export type PlanDecision = 'accept' | { revise: string } | undefined;

export type RunJsonOptions<T> = StructuredOutputOptions<T> & Omit<RunOptions, 'responseFormat' | 'stopWhen'>;

/**
 * A coding agent backed by one runtime subprocess. Prompts run one at a time, in the order they were sent;
 * the conversation (including tool results) carries over from run to run.
 */
export class Agent {
  private readonly queue: Run[] = [];
  /** The runs `onPlan` answers started, oldest first (see `planRuns`). */
  private readonly planRuns: Run[] = [];
  private active: Run | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    /** The low-level client, for the full runtime surface (change batches, editor tools, models...). */
    readonly client: RuntimeClient,
    private readonly options: AgentOptions,
  ) {
    const directoryHost = {
      client,
      callback: options.onDirectoryAccess,
      noteRunError: (runId: string, error: Error) => {
        const run = this.runFor(runId);
        if (run && run.status !== 'done') run.noteHostError(error);
      },
      note: (message: string) => {
        if (options.onTrace) options.onTrace('recv', { note: message });
        else if (options.debug) process.stderr.write(`[agentcli-sdk] ${message}\n`);
      },
    };
    client.onEvent((e) => {
      if (e.type === 'permission_request' && options.onPermissionRequest) void this.answerPermission(e);
      else if (e.type === 'directory_access_request') void answerDirectoryAccess(directoryHost, e);
      else if (e.type === 'plan_proposed' && options.onPlan) void this.answerPlan(e);
    });
  }

  /** Starts the runtime and completes the handshake. Throws typed errors (start, version, invalid options). */
  static async create(options: AgentOptions): Promise<Agent> {
    if (options === null || typeof options !== 'object') throw new InvalidArgumentError('Agent.create needs options with cwd');
    for (const name of ['onPermissionRequest', 'onDirectoryAccess', 'onChangeBatch', 'onPlan'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function') throw new InvalidArgumentError(`${name} must be a function`);
    }
    // A SERVICE_MODEL key in `env` wins over this process's variable, even when undefined (removed).
    const envModel = options.env && 'SERVICE_MODEL' in options.env ? options.env.SERVICE_MODEL : process.env.SERVICE_MODEL;
    const model = options.model ?? envModel;
    const { instructions, appendSystemPrompt, onPermissionRequest: _p, onDirectoryAccess: _d, onChangeBatch: _b, onPlan: _pl, sessionId, ...rest } = options;
    const client = new RuntimeClient({ ...rest, ...(model ? { model } : {}) });
    if (appendSystemPrompt !== undefined) client.appendSystemPrompt(appendSystemPrompt);
    if (instructions !== undefined && instructions.trim() !== '') {
      promptArgs(instructions, options.cwd, 'instructions', '', ''); // checked here, so an error names this option
      client.appendSystemPrompt(instructions);
    }
    if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.trim() === '')) {
      throw new InvalidArgumentError('sessionId must be a saved session id (see getHistory)');
    }
    const agent = new Agent(client, options);
    await client.start();
    if (sessionId !== undefined) {
      const attached = await client.attachSession({ sessionId }).catch(async (e: unknown) => {
        await agent.close();
        throw e;
      });
      if (!attached.attached) {
        await agent.close();
        throw new SessionAttachError(sessionId, attached.reason, attached.message);
      }
    }
    return agent;
  }

  /** The runtime's handshake answer (session id, provider, model, capabilities). */
  get info(): InitializeResult {
    return this.client.initialized as InitializeResult;
  }

  /** Queues a prompt and returns its Run at once; runs start in order, each after the previous one ended. */
  send(prompt: string, options: RunOptions = {}): Run {
    if (this.closing) throw new RuntimeNotRunningError('the agent is closed; create a new one');
    if (typeof prompt !== 'string' || prompt.trim() === '') throw new InvalidArgumentError('prompt must be a non-empty string');
    const { stopWhen, onChangeBatch, ...promptOptions } = options;
    const conditions = normalizeStopWhen(stopWhen);
    if (onChangeBatch !== undefined && typeof onChangeBatch !== 'function') throw new InvalidArgumentError('onChangeBatch must be a function');
    const run = new Run(prompt, this.client, promptOptions, conditions, onChangeBatch ?? this.options.onChangeBatch);
    this.queue.push(run);
    this.pump();
    return run;
  }

  /** Sends a prompt and waits for its result. */
  run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    try {
      return this.send(prompt, options).wait();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Asks for a JSON answer matching `schema` and returns the parsed, validated value. The answer is taken
   * from the whole final text, else a fenced block, else the first balanced JSON value. Invalid answers throw
   * `StructuredOutputError` (with the raw text and the issues), after one repair round trip when `repair` is set.
   */
  async runJson<T>(prompt: string, options: RunJsonOptions<T>): Promise<T> {
    const prepared = prepareSchema(options);
    const { schemaName: _n, schema: _s, validate: _v, repair, ...runOptions } = options;
    const ask = async (message: string) => {
      const result = await this.run(message, { ...runOptions, responseFormat: prepared.responseFormat });
      if (result.status !== 'completed') {
        throw new StructuredOutputError(`the run ended with status "${result.status}" before a final answer`, result.text, []);
      }
      return result.text;
    };
    const text = await ask(jsonPrompt(prompt, prepared));
    const first = parseStructured(text, prepared);
    if (first.ok) return first.value;
    if (!repair) throw structuredOutputFailure(text, first);
    const repaired = await ask(repairPrompt(first.issues));
    const second = parseStructured(repaired, prepared);
    if (second.ok) return second.value;
    throw structuredOutputFailure(repaired, second);
  }

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
  /**
   * Answers a `plan_proposed` event (plan mode, see `onPlan`): `accept` leaves plan mode and executes the plan step by
   * step (`plan_update` events), `revise` sends `note` and stays in plan mode. The run this starts is queued like a
   * prompt (after the run that proposed the plan) and returned.
   */
  respondToPlan(params: ParamsOf<'respondToPlan'>): Run {
    if (this.closing) throw new RuntimeNotRunningError('the agent is closed; create a new one');
    if (params?.decision === 'revise' && (typeof params.note !== 'string' || params.note.trim() === '')) {
      throw new InvalidArgumentError('revise needs a note saying what to change');
    }
    const label = params.decision === 'accept' ? `accept plan ${params.planId}` : (params.note ?? '');
    const run = new Run(label, this.client, {}, [], this.options.onChangeBatch, (client) => client.startPlanResponse(params));
    this.queue.push(run);
    this.pump();
    this.planRuns.push(run);
    return run;
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

  /** Ends the runtime (close stdin, SIGTERM, SIGKILL); queued runs fail, the active one fails as the runtime exits. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new RuntimeNotRunningError('the agent was closed before this run started');
      for (const run of this.queue.splice(0)) run.cancelQueued(closed);
      // A run in progress ends as `aborted` (with its agent_end) rather than by the process going away, unless the
      // runtime does not answer within a moment.
      const active = this.active;
      if (active && this.client.isRunning) {
        const ended = active.wait().then(
          () => undefined,
          () => undefined,
        );
        await Promise.race([active.abort().then(() => ended), new Promise<void>((r) => setTimeout(r, CLOSE_ABORT_WAIT_MS).unref())]).catch(() => undefined);
      }
      await this.client.stop();
    })();
    return this.closing;
  }

  private pump(): void {
    if (this.active || this.closing) return;
    const next = this.queue.shift();
    if (!next) return;
    if (next.status !== 'queued') {
      this.pump();
      return;
    }
    this.active = next;
    void next.execute().finally(() => {
      this.active = undefined;
      this.pump();
    });
  }

  private runFor(runId: string): Run | undefined {
    // The active run learns its id asynchronously; until then a request can only be for it.
    const active = this.active;
    return active && (active.id === runId || active.id === '') ? active : undefined;
  }

  /** The runs started by `onPlan` answers since the last call, oldest first (each also settles on its own). */
  takePlanRuns(): Run[] {
    return this.planRuns.splice(0);
  }

  private async answerPlan(plan: PlanProposal): Promise<void> {
    let decision: PlanDecision;
    try {
      decision = await this.options.onPlan!(plan);
    } catch (e) {
      this.runFor(plan.runId)?.noteHostError(new SdkError(`onPlan failed for plan ${plan.planId}: ${errorText(e)}`));
      return;
    }
    if (decision === undefined) return;
    try {
      this.respondToPlan(decision === 'accept' ? { planId: plan.planId, decision: 'accept' } : { planId: plan.planId, decision: 'revise', note: decision.revise });
    } catch (e) {
      this.runFor(plan.runId)?.noteHostError(e instanceof Error ? e : new SdkError(errorText(e)));
    }
  }

  private async answerPermission(request: PermissionRequest): Promise<void> {
    const callback = this.options.onPermissionRequest;
    if (!callback) return;
    let decision: PermissionDecision;
    try {
      decision = await callback(request);
    } catch (e) {
      this.runFor(request.runId)?.noteHostError(new PermissionCallbackError(request.requestId, e));
      await this.denyPermission(request.requestId).catch(() => {});
      return;
    }
    try {
      if (decision === undefined) return;
      if (decision === 'allow') await this.allowPermission(request.requestId);
      else if (decision === 'deny') await this.denyPermission(request.requestId);
      else if (decision.allow) await this.allowPermission(request.requestId, decision.scope);
      else if (decision.alternative !== undefined) await this.suggestPermissionAlternative(request.requestId, decision.alternative);
      else await this.denyPermission(request.requestId, decision.scope);
    } catch (e) {
      // A request cancelled by an abort meanwhile is already settled; anything else is reported on the run.
      if (e instanceof ProtocolError && e.code === RpcErrorCode.UnknownId) return;
      const run = this.runFor(request.runId);
      if (run && run.status !== 'done') {
        run.noteHostError(new PermissionCallbackError(request.requestId, new Error(`answer failed: ${errorText(e)}`)));
      }
    }
  }
}
