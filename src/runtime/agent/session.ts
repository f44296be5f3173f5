import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RpcErrorCode } from '../../protocol/errors';
import type { AgentEvent } from '../../protocol/events';
import type { RuntimeState } from '../../protocol/methods';
import type { ChangeDecision, HistoryMessage, HunkSelection, PermissionMode } from '../../protocol/records';
import type { ChangeBatchStore, StoredBatch } from '../changes';
import type { AttachOutcome, SavedSessions } from '../sessions/saved-sessions';
import type { Config } from '../config/schema';
import { DirectoryGrants } from '../permissions/directory-grants';
import { PermissionPolicy } from '../permissions/policy';
import { createProvider } from '../providers/create-provider';
import { type CommandSandbox, sessionTmpName } from '../sandbox/command-sandbox';
import { SecretMasker } from '../secrets/masker';
import type { ToolDefinition } from '../tools/types';
import { BatchedFiles, DirectFiles } from '../workspace/files';
import type { WorkspaceFiles } from '../workspace/types';
import { SessionHooks } from '../hooks/session-hooks';
import { ContextCompactor, estimateTokens } from './context-compaction';
import { seedHistoryProblem } from './seed-history';
import { EditorTools } from './editor-tools';
import { RuntimeRequestError } from './errors';
import type { EventDraft } from './host';
import { newId } from './ids';
import { PendingRequests } from './pending-requests';
import type { RunRequest } from './react-loop';
import type { ProposedPlan } from './loops/plan-mode';
import { effectiveSelection, type Selection } from './selection';
import type { ModelProvider } from '../providers/types';
import { executeRun } from './run-execution';
import { describeState } from './runtime-state';
import { attachSavedSession } from './session-attach';
import { batchContents, createChangeStore, decideBatch } from './session-changes';
import type { ActiveRun, SessionOptions } from './session-options';
import { cleanUpAfterSession, sessionSandbox } from './session-sandbox';
import { SessionTools } from './session-tools';
import { wireUndo } from './undo-policy';
import { YoloSwitch } from './yolo-switch';

export type { ActiveRun, SessionOptions } from './session-options';

/** One conversation with its history, modes, pending requests and change batch. Shared by rpc and CLI modes. */
export class Session {
  id = newId('session');
  readonly startedAt = Date.now();
  readonly cwd: string;
  readonly pending: PendingRequests;
  readonly store: ChangeBatchStore;
  readonly files: WorkspaceFiles;
  readonly policy: PermissionPolicy;
  readonly grants: DirectoryGrants;
  readonly editorTools: EditorTools;
  readonly outputDir: string;
  history: HistoryMessage[] = [];
  /** The config as loaded from files and environment; `configure` overlays are applied on top of it. */
  readonly baseConfig: Config;
  config: Config;
  selection: Selection;
  planMode = false;
  /** The plan plan mode's last run proposed, until `respondToPlan` answers it. */
  proposedPlan: ProposedPlan | undefined;
  private baseMode: PermissionMode;
  /** The mode came from a flag or setPermissionMode, so a new config's `defaultMode` does not replace it. */
  private modeChosen: boolean;
  private readonly yolo = new YoloSwitch((state, reason) => {
    this.policy.mode = this.permissionMode;
    this.emit({ type: 'yolo_changed', ...state, reason });
  });
  private active: ActiveRun | undefined;
  private turn: { runId: string; turnId: string } | undefined;
  /** The built-in, editor and MCP tools offered to the model. */
  readonly toolset: SessionTools;
  /** Summarises older turns when a request would not fit (`compaction.enabled`, `setContextCompact`). */
  readonly compactor: ContextCompactor;
  /** How commands run (sandbox mode, environment); replaced with new settings. */
  sandbox: CommandSandbox;
  /** Secret values masked in tool output; rebuilt with new settings (a key set through configure). */
  secrets: SecretMasker;
  /** The commands' temp folder for the session (made by the first sandboxed command, removed at the end). */
  private readonly commandTmpDir: string;
  /** Shell hooks (config, addHook) and the filesystem hooks pre-prompt and post-prompt (README "Hooks"). */
  readonly hooks: SessionHooks;
  /** Tools offered in addition to the others while set (auto-mode's `complete_task`). */
  extraTools: ToolDefinition[] = [];
  /** While set, only the tools it keeps are offered (generateSkill's run: the read-only tools and write_file). */
  toolFilter: ((name: string) => boolean) | undefined;
  /** Called with every event this session emits (auto-mode keeps its log from them). */
  readonly listeners = new Set<(event: AgentEvent) => void>();

  constructor(private readonly opts: SessionOptions) {
    this.cwd = opts.cwd;
    this.hooks = new SessionHooks({
      cwd: opts.cwd,
      home: opts.home ?? os.homedir(),
      configured: () => this.config.hooks,
      sandbox: () => this.sandbox,
      sessionId: () => this.id,
      emit: (d) => this.emit(d),
      notice: (m) => opts.host.notice?.(m),
    });
    this.pending = opts.pending ?? new PendingRequests();
    this.config = opts.config;
    this.baseConfig = opts.config;
    this.selection = opts.selection ?? {};
    this.baseMode = opts.permissionMode ?? opts.config.permissions.defaultMode ?? 'interactive';
    this.modeChosen = opts.permissionMode !== undefined;
    // Created by the first command that saves its output (most sessions run none); the temp folder's real path, so a
    // symlinked temp folder still matches the directory grant.
    this.outputDir = path.join(realpathSync.native(os.tmpdir()), 'agentcli-output', this.id);
    this.commandTmpDir = path.join(realpathSync.native(os.tmpdir()), 'agentcli-tmp', sessionTmpName(this.id));
    this.store = createChangeStore(this.cwd, (d) => this.emit(d), (line) => opts.host.notice?.(line));
    wireUndo(this.store.applied, this, (line) => opts.host.notice?.(line));
    this.files = opts.files
      ? opts.files(this.cwd, (d) => this.emit(d))
      : opts.batchMode
        ? new BatchedFiles(this.store)
        : new DirectFiles(this.cwd, (p) => this.emit({ type: 'file_modified', path: p }));
    // The agent's own output folder (full command logs) is readable like the configured additional directories.
    this.grants = new DirectoryGrants([...opts.config.permissions.additionalDirectories, this.outputDir]);
    this.policy = new PermissionPolicy({
      cwd: this.cwd,
      ...(opts.home ? { home: opts.home } : {}),
      rules: opts.config.permissions,
      mode: this.baseMode,
      directories: this.grants,
    });
    this.editorTools = new EditorTools(this.pending, (d) => this.emit(d), () => this.turn);
    this.toolset = new SessionTools(this.editorTools, opts.config, { cwd: this.cwd, changed: (reason, failure) => this.toolsChanged(reason, failure) });
    this.compactor = new ContextCompactor(opts.config.compaction.enabled, opts.config.compaction.threshold);
    this.sandbox = this.createSandbox(opts.config);
    this.secrets = SecretMasker.from(opts.config, process.env);
    this.toolset.configureMcp(opts.config);
    this.hooks.sessionStarted();
  }

  /** Every tool the model can be offered now, with the MCP servers' states (`getToolsRegistry`). */
  toolsRegistry() {
    return this.toolset.registry(this.planMode, this.permissionMode === 'restricted');
  }

  /** Emits `tools_changed` (editor tools registered, an MCP server ready, failed or with a new tool list). */
  toolsChanged(reason: string, failure = false): void {
    const tools = this.toolset.names();
    if (failure) this.opts.host.notice?.(reason);
    this.emit({ type: 'tools_changed', reason, tools });
  }

  private createSandbox(config: Config): CommandSandbox {
    return sessionSandbox(config, { workspace: this.cwd, grants: this.grants, tmpDir: this.commandTmpDir, ...(this.opts.home ? { home: this.opts.home } : {}) });
  }

  /** The warning an interactive or rpc session gives at its start when commands cannot run (probes the sandbox once). */
  sandboxNotice(): string | undefined {
    return this.sandbox.unavailableNotice();
  }

  /** `sandboxNotice` without blocking the event loop while the sandbox is probed (the start of an rpc session). */
  sandboxNoticeAsync(): Promise<string | undefined> {
    return this.sandbox.unavailableNoticeAsync();
  }

  /**
   * Switches to new settings (`configure`): permission rules, additional directories, the command timeout and, unless
   * a mode was chosen explicitly, the default mode. Session grants and rules the user approved for the session stay.
   * Throws on an invalid permission rule, leaving the previous settings in place.
   */
  applyConfig(config: Config): void {
    this.policy.setRules(config.permissions);
    this.config = config;
    this.grants.setConfigured([...config.permissions.additionalDirectories, this.outputDir]);
    this.opts.saved?.configure(config);
    this.compactor.configure(config.compaction);
    this.toolset.configureCore(config);
    this.sandbox = this.createSandbox(config);
    this.secrets = SecretMasker.from(config, process.env);
    this.toolset.configureMcp(config);
    if (!this.modeChosen) {
      this.baseMode = config.permissions.defaultMode ?? 'interactive';
      this.policy.mode = this.permissionMode;
    }
  }

  emit(draft: EventDraft): void {
    if (draft.type === 'turn_start') this.turn = { runId: draft.runId, turnId: draft.turnId };
    this.opts.saved?.observe(this, draft); // before the host hears of it: what a host saw is on disk
    this.hooks.observe(draft);
    const event = { ...draft, sessionId: this.id } as AgentEvent;
    this.opts.host.emit(event);
    for (const listener of this.listeners) listener(event);
  }

  get permissionMode(): PermissionMode {
    return this.yolo.active ? 'unrestricted' : this.baseMode;
  }

  get running(): ActiveRun | undefined {
    return this.active;
  }

  selected(): { provider: string; model: string } {
    return effectiveSelection(this.config, this.selection);
  }

  /** Starts a run; answers at once. Refused while another run is active or a change batch awaits a decision. */
  startRun(req: Omit<RunRequest, 'runId' | 'maxIterations'> & { maxIterations?: number }, acceptedPlan?: ProposedPlan): ActiveRun {
    if (this.active) {
      throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `run ${this.active.runId} is still active: wait for its agent_end or call abort`);
    }
    const pendingBatch = this.store.pending();
    if (pendingBatch) {
      throw new RuntimeRequestError(
        RpcErrorCode.BatchPending,
        `change batch ${pendingBatch.id} (${pendingBatch.changes.length} file(s)) is waiting for a decision: call decideChanges first`,
      );
    }
    if (this.store.applied.busy) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, 'an undo is putting files back: send the prompt when it has finished');
    const runId = newId('run');
    const controller = new AbortController();
    const done = executeRun(this, this.opts, { ...req, runId, maxIterations: req.maxIterations ?? this.opts.maxIterations ?? this.config.maxIterations }, controller, acceptedPlan);
    this.active = { runId, controller, done };
    void done.finally(() => {
      if (this.active?.runId === runId) this.active = undefined;
      this.turn = undefined;
    });
    return this.active;
  }

  /**
   * Starts a run after prior messages (`prompt` with `history`) became the conversation; only a conversation without
   * messages takes them. Checked before anything changes, so a refused request leaves the session as it was.
   */
  startRunWithHistory(req: Omit<RunRequest, 'runId' | 'maxIterations'> & { maxIterations?: number }, history: HistoryMessage[]): ActiveRun {
    if (this.active) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `run ${this.active.runId} is still active: wait for its agent_end or call abort`);
    if (this.history.length > 0) {
      throw new RuntimeRequestError(
        RpcErrorCode.InvalidParams,
        `history starts a conversation, but this one already has ${this.history.length} message(s): call reset first, or leave history out to continue it`,
      );
    }
    const problem = seedHistoryProblem(history);
    if (problem) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, `invalid prompt history: ${problem}`);
    const pendingBatch = this.store.pending();
    if (pendingBatch) return this.startRun(req); // refuses with BatchPending, history untouched
    this.history = history.map((m) => ({ ...m }));
    try {
      return this.startRun(req);
    } catch (e) {
      this.history = [];
      throw e;
    }
  }

  /** Cancels the active run: HTTP request, running commands, pending requests. Always answers. */
  abort(): { aborted: boolean; runId?: string } {
    const run = this.active;
    if (!run) return { aborted: false };
    run.controller.abort();
    return { aborted: true, runId: run.runId };
  }

  decideChanges(batchId: string, decision: ChangeDecision, changeIds?: string[], hunks?: HunkSelection) {
    return decideBatch(this.store, (d) => this.emit(d), batchId, decision, changeIds, hunks);
  }

  /**
   * Both sides of changes of the open or pending batch (events carry none), bounded per answer; one change larger than
   * `maxChange` (the host's line limit) is refused with a message naming it.
   */
  changeContents(batchId: string, changeIds?: string[], maxChange = Number.POSITIVE_INFINITY) {
    return batchContents(this.store, batchId, changeIds, maxChange);
  }

  /**
   * The answer to a proposed plan: `accept` leaves plan mode and starts a run executing it; `revise` sends the note as
   * the next prompt, still in plan mode. Refused while a run is active or for a plan that is not the one waiting.
   */
  respondToPlan(planId: string, decision: 'accept' | 'revise', note?: string): ActiveRun {
    const plan = this.proposedPlan;
    if (!plan || plan.planId !== planId) {
      throw new RuntimeRequestError(RpcErrorCode.UnknownId, `no proposed plan ${planId} is waiting${plan ? ` (the waiting one is ${plan.planId})` : ''}`);
    }
    if (decision === 'revise') {
      const run = this.startRun({ message: note?.trim() || 'Revise the plan.' });
      this.proposedPlan = undefined;
      return run;
    }
    const message = `The plan was accepted${note?.trim() ? ` (${note.trim()})` : ''}. Carry it out step by step:`;
    const run = this.startRun({ message }, plan);
    this.proposedPlan = undefined;
    this.planMode = false;
    return run;
  }

  setPermissionMode(mode: PermissionMode): PermissionMode {
    this.baseMode = mode;
    this.modeChosen = true;
    this.policy.mode = this.permissionMode;
    return this.permissionMode;
  }

  /** `timeoutMinutes` must be positive and at most MAX_YOLO_MINUTES (Node timers cannot wait much longer than 24 days). */
  setYolo(enabled: boolean, timeoutMinutes?: number): RuntimeState['yolo'] {
    return this.yolo.set(enabled, timeoutMinutes);
  }

  /**
   * A session like this one (config, model, permission mode, host) rooted in another folder (auto-mode's worktree):
   * no saving, writes land on its disk, and its permission requests are answered through this session's methods.
   */
  forkAt(cwd: string): Session {
    const { saved: _notSaved, files: _editorFiles, ...opts } = this.opts; // the worktree's files are on its disk
    return new Session({
      ...opts,
      cwd,
      config: this.config,
      batchMode: false,
      writesReviewedLater: true,
      permissionMode: this.permissionMode,
      selection: this.selection,
      pending: this.pending,
    });
  }

  get homeDir(): string | undefined {
    return this.opts.home;
  }

  get saved(): SavedSessions | undefined {
    return this.opts.saved;
  }

  /** Continues a saved session (attachSession); refused while a run is active or a change batch awaits a decision. */
  attachSaved(sessionId: string): AttachOutcome {
    return attachSavedSession(this, sessionId);
  }

  /** Called by attach: the saved session's id, history and undecided change batch become this session's. */
  restoreSaved(id: string, history: HistoryMessage[], batch: StoredBatch | null): void {
    this.id = id;
    this.history = history;
    this.proposedPlan = undefined;
    if (batch) this.store.restorePending(batch);
    this.store.applied.replace(this.opts.saved?.loadApplied(id) ?? []);
  }

  /** Clears the conversation (a pending change batch is kept) and starts a new session id. */
  reset(): string {
    if (this.active) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, 'abort the active run before resetting the conversation');
    this.history = [];
    this.proposedPlan = undefined;
    this.id = newId('session');
    this.store.applied.replace([]); // undo is per session: the new one has applied nothing yet
    return this.id;
  }

  state(): RuntimeState {
    return describeState(this, this.yolo.state());
  }

  /** The model provider for a run or a compaction (`providerFactory`, else from the config). */
  newProvider(): ModelProvider {
    return (this.opts.providerFactory ?? createProvider)(this.config, this.selection);
  }

  /**
   * `/compact`: summarises the whole conversation now (between runs). Answers false when there is nothing new to
   * summarise; a provider failure throws.
   */
  async compactNow(signal: AbortSignal = new AbortController().signal): Promise<boolean> {
    if (this.active) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `wait for run ${this.active.runId} to end before compacting`);
    const provider = this.newProvider();
    const result = await this.compactor.compact({ history: this.history, provider, fixedChars: 0, signal }, false);
    if (!result) return false;
    const { messagesBefore, messagesAfter, tokensBefore, tokensAfter } = result;
    this.emit({ type: 'context_compacted', messagesBefore, messagesAfter, tokensBefore, tokensAfter });
    return true;
  }

  /** Rough token count (the compactor's estimate) of what the next request would send. */
  contextUsage(): { usedTokens: number; messageCount: number } {
    return { usedTokens: estimateTokens(this.history), messageCount: this.history.length };
  }

  end(): void {
    this.yolo.stop();
    this.toolset.close();
    this.emit({ type: 'session_end', duration: Date.now() - this.startedAt });
    this.opts.saved?.close();
    // Hooks still queued (session_end's among them) run in the sandbox's temp folder: clean up after them, not under them.
    const cleanUp = () => cleanUpAfterSession(this.sandbox, this.outputDir);
    void this.hooks.settled().then(cleanUp, cleanUp);
  }
}
