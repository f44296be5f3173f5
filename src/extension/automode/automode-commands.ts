/**
 * Auto mode in the editor: "Start Auto Mode…" (goal, max iterations, git worktree or not), a status bar item while it
 * runs ("$(sync~spin) Auto 3/10") whose click offers Pause / Resume / Cancel / Show Log, the log as a read-only
 * markdown document, and a notification when it ends. The final change batch is a normal `change_batch_ready`,
 * reviewed with the existing review ("Review Auto Mode Changes" opens it).
 */
import * as vscode from 'vscode';
import { StatusItem } from '../status-item';
import type { AutomodeStatus } from '../../protocol/automode';
import type { AgentEvent } from '../../protocol/events';
import type { RuntimeClient } from '../../sdk/client';
import { CONTEXT_KEYS } from '../chat/context-keys';
import { completionText, logMarkdown, parseMaxIterations, statusBarText } from './automode-text';

const LOG_SCHEME = 'agentcli-automode-log';
const LOG_URI = vscode.Uri.from({ scheme: LOG_SCHEME, path: '/Auto Mode Log.md' });

export interface AutomodeDeps {
  client: () => Promise<RuntimeClient>;
  running: () => RuntimeClient | undefined;
  /** A change batch waits for review (the auto-mode run's final batch, or any other). */
  batchPending: () => boolean;
  log: (line: string) => void;
}

type Action = vscode.QuickPickItem & { run: () => Promise<unknown> };

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class AutomodeCommands implements vscode.Disposable, vscode.TextDocumentContentProvider {
  private status: AutomodeStatus = { active: false, iteration: 0, maxIterations: 0 };
  private readonly item: StatusItem;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private startingWorktree: Promise<unknown> | undefined;
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: AutomodeDeps) {
    const item = vscode.window.createStatusBarItem('agentcli.automodeStatus', vscode.StatusBarAlignment.Right, 99.4);
    item.name = 'agentcli auto mode';
    item.command = 'agentcli.autoModeActions';
    this.item = new StatusItem(item);
  }

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('agentcli.startAutoMode', () => this.start()),
      vscode.commands.registerCommand('agentcli.autoModeActions', () => this.actions()),
      vscode.commands.registerCommand('agentcli.showAutoModeLog', () => this.showLog()),
      vscode.commands.registerCommand('agentcli.reviewAutoModeChanges', () => this.reviewChanges()),
      vscode.workspace.registerTextDocumentContentProvider(LOG_SCHEME, this),
    ];
  }

  /**
   * Whether `sessionId` is the session of an auto-mode run in its own git worktree: its events are not the panel's
   * conversation (the chat history must not remember it as the panel's chat). Its first events can arrive before
   * startAutomode answers, so while a worktree start is under way the answer waits for it.
   */
  async isWorktreeSession(sessionId: string): Promise<boolean> {
    await this.startingWorktree;
    return this.status.worktree !== undefined && this.status.sessionId === sessionId;
  }

  async start(): Promise<void> {
    const goal = await vscode.window.showInputBox({
      title: 'Start Auto Mode (1/3): goal',
      prompt: 'What should the agent work toward? It works in iterations until it reports the goal met or reaches the limit.',
      placeHolder: 'e.g. Make every test in test/ pass',
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() === '' ? 'Describe the goal' : undefined),
    });
    if (goal === undefined || goal.trim() === '') return;
    const maxIterations = await this.pickIterations();
    if (maxIterations === undefined) return;
    const worktree = await vscode.window.showQuickPick(
      [
        { label: 'Yes, use a git worktree', useWorktree: true, detail: 'Works on a new branch in its own folder; at the end its changes are offered for review here.' },
        { label: 'No, work in this folder', useWorktree: false, detail: 'Changes are proposed in this workspace as the agent goes.' },
      ],
      { title: 'Start Auto Mode (3/3): use a git worktree?', placeHolder: 'A worktree keeps your folder untouched until you review the result', ignoreFocusOut: true },
    );
    if (!worktree) return;
    try {
      const client = await this.deps.client();
      const started = client.startAutomode({ prompt: goal.trim(), maxIterations, useWorktree: worktree.useWorktree }).then(async ({ sessionId }) => {
        this.status = { ...(await client.getAutomodeStatus()), sessionId };
      });
      if (worktree.useWorktree) this.startingWorktree = started.catch(() => undefined);
      await started;
      this.render();
      void vscode.window.setStatusBarMessage(`Auto mode started: at most ${maxIterations} iterations.`, 4000);
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not start auto mode: ${message(e)}`);
    }
  }

  private async pickIterations(): Promise<number | undefined> {
    const picked = await vscode.window.showQuickPick(
      [
        { label: '5', value: 5, description: 'a small task' },
        { label: '10', value: 10, description: 'the default' },
        { label: '20', value: 20, description: 'a larger task' },
        { label: 'Custom…', value: 0, description: `from 1 to 1000` },
      ],
      { title: 'Start Auto Mode (2/3): at most how many iterations?', placeHolder: 'Each iteration is one agent run toward the goal', ignoreFocusOut: true },
    );
    if (!picked) return undefined;
    if (picked.value > 0) return picked.value;
    const text = await vscode.window.showInputBox({
      title: 'Start Auto Mode (2/3): iterations',
      prompt: 'At most how many iterations?',
      value: '15',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const r = parseMaxIterations(v);
        return 'error' in r ? r.error : undefined;
      },
    });
    if (text === undefined) return undefined;
    const r = parseMaxIterations(text);
    return 'value' in r ? r.value : undefined;
  }

  /** The status bar item's menu: what can be done with the run as it is now. */
  async actions(): Promise<void> {
    await this.refresh();
    const s = this.status;
    const items: Action[] = [];
    if (s.active && s.state === 'running') items.push({ label: '$(debug-pause) Pause', detail: 'Stop after the iteration under way', run: () => this.control('pause') });
    if (s.active && s.state === 'paused') items.push({ label: '$(debug-continue) Resume', run: () => this.control('resume') });
    if (s.active) items.push({ label: '$(debug-stop) Cancel', detail: 'Stop now; the iteration under way is aborted', run: () => this.control('cancel') });
    items.push({ label: '$(output) Show Log', detail: 'What each iteration did, as a markdown document', run: () => this.showLog() });
    if (this.deps.batchPending()) items.push({ label: '$(diff-multiple) Review Changes', run: () => this.reviewChanges() });
    const title = statusBarText(s)?.tooltip.replace(/ Click to .*$/, '') ?? 'Auto mode is not running';
    const picked = await vscode.window.showQuickPick(items, { title: 'Auto Mode', placeHolder: title });
    if (picked) await picked.run();
  }

  private async control(what: 'pause' | 'resume' | 'cancel'): Promise<void> {
    try {
      const client = await this.deps.client();
      this.status = what === 'pause' ? await client.pauseAutomode() : what === 'resume' ? await client.resumeAutomode() : await client.cancelAutomode();
      this.render();
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not ${what} auto mode: ${message(e)}`);
    }
  }

  async showLog(): Promise<void> {
    this.changed.fire(LOG_URI); // an open log document refreshes
    try {
      const doc = await vscode.workspace.openTextDocument(LOG_URI);
      await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
      await vscode.window.showTextDocument(doc, { preview: false });
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not show the auto-mode log: ${message(e)}`);
    }
  }

  /** The log document's text, fetched when it is opened or refreshed. */
  async provideTextDocumentContent(): Promise<string> {
    try {
      const client = await this.deps.client();
      return logMarkdown(await client.getAutomodeLog());
    } catch (e) {
      return `# Auto mode log\n\nThe log could not be read: ${message(e)}\n`;
    }
  }

  private async reviewChanges(): Promise<void> {
    if (!this.deps.batchPending()) {
      void vscode.window.showInformationMessage('No auto-mode changes are waiting for review.');
      return;
    }
    await vscode.commands.executeCommand('agentcli.reviewChanges');
  }

  /** Asks the runtime where auto mode is (after a start, a restart, or before showing the menu). */
  async refresh(): Promise<void> {
    const client = this.deps.running();
    if (!client) return;
    try {
      this.status = await client.getAutomodeStatus();
      this.render();
    } catch (e) {
      this.deps.log(`could not read the auto-mode status: ${message(e)}`);
    }
  }

  onEvent(e: AgentEvent): void {
    switch (e.type) {
      case 'automode_iteration':
        this.status = { ...this.status, iteration: Math.min(e.iteration + 1, e.maxIterations), maxIterations: e.maxIterations };
        this.render();
        void this.refresh();
        this.changed.fire(LOG_URI);
        return;
      case 'automode_complete':
        this.status = { ...this.status, active: false, state: e.state, iteration: e.iterations, summary: e.summary };
        this.render();
        this.changed.fire(LOG_URI);
        void this.announce(completionText(e), e.batch !== undefined && e.batch.changes.length > 0, false);
        return;
      case 'automode_error':
        this.status = { ...this.status, active: false, state: 'failed', error: e.error };
        this.render();
        this.changed.fire(LOG_URI);
        void this.announce(`Auto mode failed in iteration ${e.iteration}: ${e.error}${e.branch ? ` Its work so far is on the branch ${e.branch}.` : ''}`, false, true);
        return;
      default:
        return;
    }
  }

  private async announce(text: string, review: boolean, error: boolean): Promise<void> {
    const buttons = [...(review ? ['Review Changes'] : []), 'Show Log'];
    const pick = error ? await vscode.window.showErrorMessage(text, ...buttons) : await vscode.window.showInformationMessage(text, ...buttons);
    if (pick === 'Review Changes') await this.reviewChanges();
    else if (pick === 'Show Log') await this.showLog();
  }

  private render(): void {
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.autoMode, this.status.active);
    const shown = statusBarText(this.status);
    if (!shown) {
      this.item.hide();
      return;
    }
    this.item.show(shown.text, shown.tooltip);
  }

  dispose(): void {
    this.item.dispose();
    this.changed.dispose();
  }
}
