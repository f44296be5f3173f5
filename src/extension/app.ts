/**
 * Wires the extension together: runtime host → session store → chat panel (deltas), permission prompts, change
 * batches, editor tools, settings, modes and model status. Created on activation; the runtime itself starts only
 * when the panel or a command needs it.
 */
import * as vscode from 'vscode';
import { batchIsIncomplete } from '../protocol/change-batch';
import type { AgentEvent } from '../protocol/events';
import { RpcErrorCode } from '../protocol/constants';
import type { HunkSelection } from '../protocol/records';
import { ProtocolError } from '../sdk/errors';
import type { RuntimeClient } from '../sdk/client';
import type { ContextChip, PanelState, RuntimeStatus, ToWebviewInput } from '../shared/chat/messages';
import { isUnshownEvent } from '../shared/chat/model/unshownEvents';
import { AutomodeCommands } from './automode/automode-commands';
import { BatchReview } from './changes/batch-review';
import { batchSummary } from './changes/batch-items';
import { DiffContentProvider } from './changes/diff-content-provider';
import { applyLocally } from './changes/local-apply';
import { UndoChanges } from './changes/undo-changes';
import { ChatController } from './chat/chat-controller';
import { ContextKeys, panelStateKeys } from './chat/context-keys';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chat-view-provider';
import { answerInvocation } from './mcp/editor-tools';
import { registerMcpServersView } from './mcp/servers-view';
import { EDITOR_TOOLS } from './mcp/tool-descriptors';
import { ModeCommands } from './modes/mode-commands';
import { ModelPicker } from './models/model-picker';
import { Output } from './output';
import { PermissionPrompts } from './permissions/permission-prompts';
import { RuntimeHost } from './host/runtime-host';
import { ChatHistory } from './session/chat-history';
import { SessionStore } from './session/session-store';
import { providerKeyStatus } from './settings/secret-commands';
import { notifyError } from './settings/error-actions';
import { editorError } from './settings/error-wording';
import { SettingsSync, vscodeSecrets, vscodeSettings } from './settings/settings-sync';
import { shownModel } from './models/model-items';

export class App implements vscode.Disposable {
  readonly output = new Output();
  readonly store = new SessionStore();
  readonly content = new DiffContentProvider((batchId, changeIds) => this.fetchContents(batchId, changeIds));
  readonly host: RuntimeHost;
  readonly view: ChatViewProvider;
  readonly prompts: PermissionPrompts;
  readonly batches: BatchReview;
  readonly settings: SettingsSync;
  readonly modes: ModeCommands;
  readonly models: ModelPicker;
  readonly history: ChatHistory;
  readonly automode: AutomodeCommands;
  readonly undo: UndoChanges;
  /** The last chat is reopened once per window (after a reload), not after a crash restart. */
  private restoreTried = false;
  private readonly controller: ChatController;
  /** `when` clause keys that follow the panel state (Stop only while running, Turn Off Yolo only while on). */
  private readonly contextKeys = new ContextKeys((key, value) => void vscode.commands.executeCommand('setContext', key, value));
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly context: vscode.ExtensionContext) {
    const log = (line: string) => this.output.info(line);
    this.settings = new SettingsSync({
      secrets: context.secrets,
      output: this.output,
      client: () => this.host.running,
      applied: (r) => this.updateState({ provider: r.provider, model: r.model }),
    });
    this.host = new RuntimeHost({
      extensionPath: context.extensionUri.fsPath,
      output: this.output,
      prepare: async (client) => {
        await this.settings.apply(client);
        const { registered } = await client.setEditorMcpTools([...EDITOR_TOOLS]);
        log(`editor tools registered: ${registered.join(', ')}`);
        if (!this.restoreTried) {
          this.restoreTried = true;
          await this.history.restoreLast(client);
        }
      },
    });
    this.history = new ChatHistory({
      workspaceState: context.workspaceState,
      store: this.store,
      client: () => this.host.ensureStarted(),
      running: () => this.host.running,
      post: (m) => this.post(m),
      batchChanged: () => {
        this.batches.setBatch(this.store.batch);
        void this.undo.refresh(); // another chat was opened: its applied changes are the undoable ones
      },
      setContext: (key, value) => this.contextKeys.set({ [key]: value }),
      log,
    });
    this.view = new ChatViewProvider(context.extensionUri, this.output, (m) => this.controller.handle(m));
    this.prompts = new PermissionPrompts({
      client: () => this.host.running,
      store: this.store,
      panelVisible: () => this.view.visible,
      log,
    });
    this.batches = new BatchReview(
      this.content,
      { decide: (batchId, decision, ids, hunks) => this.decide(batchId, decision, ids, hunks) },
      {
        onResults: (batchId, results) => {
          this.store.batchDecided(batchId, results);
          this.post({ type: 'batchResult', batchId, results });
        },
        onHunkTallies: (batchId, files) => this.post({ type: 'batchHunks', batchId, files }),
        log,
      },
    );
    const client = () => this.host.ensureStarted();
    this.modes = new ModeCommands({ client, state: () => this.store.state, update: (p) => this.updateState(p) });
    this.models = new ModelPicker({
      client,
      state: () => this.store.state,
      update: (p) => this.updateState(p),
      settings: vscodeSettings,
      secrets: vscodeSecrets(context.secrets),
      reconfigure: () => this.settings.applyOrThrow(),
      keyStatus: () => providerKeyStatus(context.secrets),
      output: this.output,
    });
    this.automode = new AutomodeCommands({ client, running: () => this.host.running, batchPending: () => this.store.batch !== null, log });
    this.undo = new UndoChanges({ host: this.host, post: (m) => this.post(m), log });
    this.controller = new ChatController({
      host: this.host,
      store: this.store,
      prompts: this.prompts,
      batches: this.batches,
      post: (m) => this.post(m),
      log,
      refocusPanel: () => (this.view.visible ? this.view.reveal(true) : Promise.resolve()),
      newChatStarted: () => this.newChatStarted(),
      stateChanged: () => this.updateState({}),
      restorePending: () => this.history.restorePending,
      undo: this.undo,
    });
    this.disposables.push(
      this.output,
      this.controller,
      this.content,
      this.host,
      this.view,
      this.batches,
      this.settings,
      this.modes,
      this.models,
      this.automode,
      this.undo,
      vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this.view, { webviewOptions: { retainContextWhenHidden: false } }),
      vscode.workspace.registerTextDocumentContentProvider('agentcli-change', this.content),
      this.view.onDidChangeVisibility((visible) => {
        // The panel shows why a start failed. Started in a later task: the first start loads the SDK and its schemas
        // (100-500 ms after a reload), and in this one the panel's HTML has just been handed to VS Code, which sends
        // it to the window only once this task ends (its writer flushes on a 0 ms timer, which this one follows).
        if (visible) setTimeout(() => void this.host.ensureStarted().catch(() => undefined), 0);
      }),
      this.host.onEvent((e) => this.onEvent(e)),
      this.host.onStatus((s) => this.onStatus(s)),
      this.host.onReady(({ state, restarted }) => {
        this.store.adoptRuntimeState(state);
        this.batches.setBatch(this.store.batch);
        this.renderStatus();
        this.post(this.store.initMessage());
        if (restarted) log(`runtime restarted; session ${state.sessionId}`);
        void this.history.refreshUsage();
        void this.automode.refresh();
      }),
      ...this.modes.register(),
      ...this.automode.register(),
      ...this.models.register(),
      ...registerMcpServersView(this.host),
    );
  }

  /** The client, starting the runtime when needed. */
  client(): Promise<RuntimeClient> {
    return this.host.ensureStarted();
  }

  post(message: ToWebviewInput): void {
    this.view.post(message);
  }

  updateState(patch: Partial<PanelState>): void {
    this.store.state = { ...this.store.state, ...patch, ...(patch.model !== undefined ? { model: shownModel(patch.model) } : {}) };
    this.post({ type: 'state', state: this.store.state });
    this.renderStatus();
  }

  async addContext(chip: ContextChip): Promise<void> {
    this.store.addContext(chip);
    await this.view.reveal(true);
    this.post({ type: 'contextAdded', chip });
    this.post({ type: 'focusInput' });
  }

  /** After `reset`: a reload opens an empty chat, and the meter starts again. */
  newChatStarted(): void {
    this.history.forget();
    void this.history.refreshUsage();
  }

  private renderStatus(): void {
    this.contextKeys.set(panelStateKeys(this.store.state));
    this.models.render(this.store.state);
    this.modes.render(this.store.state);
  }

  private onEvent(event: AgentEvent): void {
    const e = this.inVsCodeTerms(event);
    const stateChanged = this.store.apply(e);
    // Events the transcript shows nothing of stay here (a run opens with two of them before its first text).
    if (!isUnshownEvent(e)) this.post({ type: 'event', event: e });
    if (stateChanged) {
      // A run's start and end change only `running`, which the panel takes from the event itself: one post less
      // (each is a trip through the window's renderer) ahead of the answer's first text.
      if (e.type !== 'agent_start' && e.type !== 'agent_end') this.post({ type: 'state', state: this.store.state });
      this.renderStatus();
    }
    switch (e.type) {
      case 'agent_start':
        // an auto-mode run in its own worktree has its own session: not the panel's chat
        void this.automode.isWorktreeSession(e.sessionId).then((theirs) => theirs || this.history.remember(e.sessionId));
        break;
      case 'automode_iteration':
      case 'automode_complete':
      case 'automode_error':
        this.automode.onEvent(e);
        break;
      case 'agent_end':
      case 'context_compacted':
        void this.history.refreshUsage();
        break;
      case 'permission_request':
        this.prompts.onPermissionRequest(e);
        break;
      case 'directory_access_request':
        this.prompts.onDirectoryRequest(e);
        break;
      case 'change_batch_updated':
        // the store merged the event (it carries only the files that changed)
        this.batches.setBatch(this.store.batch);
        if (this.store.batch && batchIsIncomplete(this.store.batch, e)) void this.refreshBatch(e.batchId);
        break;
      case 'change_batch_ready':
        this.batches.setBatch(e.batch);
        // Contents now, once: if the runtime dies before the decision, the editor can still apply the batch.
        void this.content.prefetch().catch((err: unknown) => this.output.warn(`could not fetch the proposed contents: ${err instanceof Error ? err.message : String(err)}`));
        if (!this.view.visible) void this.notifyBatch();
        break;
      case 'change_batch_decided': {
        const b = this.batches.current;
        if (b?.id === e.batchId) this.batches.finish(b, e.results);
        break;
      }
      case 'yolo_changed':
        void this.modes.yoloChanged(e);
        break;
      case 'mcp_invocation': {
        const c = this.host.running;
        if (c) void answerInvocation(c, e, (l) => this.output.info(l));
        break;
      }
      default:
        break;
    }
  }

  /**
   * A run's error in the editor's words (error-wording.ts): the runtime's remedy is for a terminal (`agentcli config
   * set …`); here the setting is named and its fix is a button on the panel's card and in a notification. The
   * runtime's own text goes to the output channel.
   */
  private inVsCodeTerms(e: AgentEvent): AgentEvent {
    if (e.type !== 'error' || e.code === 'tool_error') return e;
    const shown = editorError(e.code, e.error, e.remedy, e.fix);
    if (shown.message === e.error && shown.remedy === e.remedy && shown.fix === e.fix) return e;
    this.output.warn(`${e.error}${e.remedy ? ` (runtime remedy: ${e.remedy})` : ''}`);
    const { fix: _runtimeFix, remedy: _runtimeRemedy, ...rest } = e;
    if (shown.fix) void notifyError(shown);
    return { ...rest, error: shown.message, ...(shown.remedy ? { remedy: shown.remedy } : {}), ...(shown.fix ? { fix: shown.fix } : {}) };
  }

  private onStatus(s: RuntimeStatus): void {
    this.store.runtime = s;
    if (s.status === 'crashed' || s.status === 'restarting') {
      this.interruptActiveRun(s.reason);
      this.store.runtimeLost();
      this.post({ type: 'state', state: this.store.state });
      this.renderStatus();
    }
    this.post({ type: 'runtimeStatus', runtime: s });
    if (s.status === 'crashed' && !this.view.visible) {
      const message = 'The agentcli runtime stopped unexpectedly. Restart it to continue; the output has the details.';
      void vscode.window.showErrorMessage(message, 'Restart', 'Show Output').then((pick) => {
        if (pick === 'Restart') void this.host.restart().catch(() => undefined);
        else if (pick === 'Show Output') this.output.show();
      });
    }
  }

  /**
   * The runtime died mid-run: it will never send that run's end, so end it here the way the runtime would
   * (streaming text settled, running tools and pending prompts cancelled, the reason shown).
   */
  private interruptActiveRun(reason: string | undefined): void {
    const runId = this.store.transcript.activeRunId;
    if (!runId) return;
    if (reason) this.output.warn(`run ${runId} interrupted: ${reason}`);
    const message = 'The run was interrupted because the runtime stopped.';
    this.onEvent({
      type: 'error',
      sessionId: '',
      runId,
      code: 'internal',
      error: message,
      remedy: 'The restarted runtime does not remember this conversation: send your request again with the context it needs.',
    });
    this.onEvent({
      type: 'agent_end',
      sessionId: '',
      runId,
      status: 'error',
      text: '',
      error: { code: 'internal', message },
    });
  }

  private async notifyBatch(): Promise<void> {
    const b = this.batches.current;
    if (!b) return;
    const { files, additions, deletions } = batchSummary(b);
    const message = `The agent proposes changes to ${files} file${files === 1 ? '' : 's'} (+${additions} −${deletions}).`;
    const pick = await vscode.window.showInformationMessage(message, 'Review', 'Accept All', 'Reject All');
    if (pick === 'Review') await this.batches.review(b.id);
    else if (pick === 'Accept All') await this.batches.decide('accept_all', undefined, b.id);
    else if (pick === 'Reject All') await this.batches.decide('reject_all', undefined, b.id);
  }

  /** One `getChangeContents` answer from the running runtime (a restarted one does not know the old batch). */
  private async fetchContents(batchId: string, changeIds: string[]) {
    const client = this.host.running;
    if (!client) throw new Error('the runtime is not running; restart it to review the proposed changes');
    return client.getChangeContents({ batchId, changeIds });
  }

  /** Batch updates were missed (the held batch lacks files): take the whole batch from the runtime's state. */
  private async refreshBatch(batchId: string): Promise<void> {
    try {
      const { pendingBatch } = await (await this.client()).getState();
      if (pendingBatch?.id !== batchId || this.store.batch?.id !== batchId) return;
      this.store.batch = pendingBatch;
      this.batches.setBatch(pendingBatch);
    } catch (e) {
      this.output.warn(`could not refresh the proposed changes: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** decideChanges, or a local apply when the (restarted) runtime no longer knows the batch we still hold. */
  private async decide(batchId: string, decision: 'accept_all' | 'reject_all' | 'accept_selected', changeIds?: string[], hunks?: HunkSelection) {
    const client = await this.host.ensureStarted();
    try {
      const { results } = await client.decideChanges({ batchId, decision, changeIds, hunks });
      return results;
    } catch (e) {
      const batch = this.store.batch;
      if (e instanceof ProtocolError && e.code === RpcErrorCode.UnknownId && batch?.id === batchId) {
        this.output.warn(`the runtime does not know batch ${batchId} (it was restarted); applying the decision in the editor`);
        return applyLocally(batch, this.content.heldContents(batchId), decision, changeIds, hunks);
      }
      throw e;
    }
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) d.dispose();
  }
}
