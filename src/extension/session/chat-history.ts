/**
 * Sessions that last, in the editor: the panel reattaches this workspace's last chat after a window reload (its id is
 * kept in workspaceState) and rebuilds the transcript from `getSession`; "Open Chat History…" lists this folder's
 * saved chats (title, age, model) to reopen or delete; the context meter and "Compact Conversation".
 */
import * as vscode from 'vscode';
import type { ResultOf } from '../../protocol/methods';
import type { RuntimeClient } from '../../sdk/client';
import { BatchPendingError, RunInProgressError } from '../../sdk/errors';
import type { ToWebviewInput } from '../../shared/chat/messages';
import { transcriptFromSession } from '../../shared/chat/model/sessionTranscript';
import { inEditorWords } from '../settings/error-wording';
import type { SessionStore } from './session-store';
import { attachFailureReason, deleteFailureReason, historyRow } from './history-items';

const LAST_SESSION_KEY = 'agentcli.lastSessionId';
/** Context key: the chat has a conversation to compact. */
const HAS_CONVERSATION = 'agentcli.hasConversation';
const PAGE_SIZE = 50;
/** Attach attempts after a `busy` answer at reload (every 500 ms). */
const RELOAD_RETRIES = 6;

type AttachSessionAnswer = Extract<ResultOf<'attachSession'>, { attached: true }>;
export type AttachedSession = Pick<AttachSessionAnswer, 'sessionId'> & Partial<Pick<AttachSessionAnswer, 'pendingBatch' | 'skippedLines' | 'unsavedChanges'>>;

export interface ChatHistoryDeps {
  workspaceState: vscode.Memento;
  store: SessionStore;
  /** The ready client, starting the runtime when needed. */
  client: () => Promise<RuntimeClient>;
  /** The running client, if any (no start). */
  running: () => RuntimeClient | undefined;
  post: (message: ToWebviewInput) => void;
  /** The attached session's undecided batch becomes the one under review. */
  batchChanged: () => void;
  /** Sets a context key for `when` clauses (only a change goes to the window). */
  setContext: (key: string, value: boolean) => void;
  log: (line: string) => void;
}

type PickItem = vscode.QuickPickItem & { sessionId?: string; more?: true };

const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete this chat' };

export class ChatHistory {
  /** The first start's reopening of the last chat is over (done, failed or not needed). */
  private restoreSettled = false;

  constructor(private readonly deps: ChatHistoryDeps) {}

  /**
   * After a reload, until the last chat is reopened: the panel keeps showing the copy it saved (instead of an empty
   * chat that the restored one would replace a moment later).
   */
  get restorePending(): boolean {
    return !this.restoreSettled && !!this.deps.workspaceState.get<string>(LAST_SESSION_KEY) && !this.deps.store.conversationStarted;
  }

  /** The chat's saved session: after its first prompt (agent_start) it is the one a reload reopens. */
  remember(sessionId: string): void {
    if (sessionId === '' || this.deps.workspaceState.get<string>(LAST_SESSION_KEY) === sessionId) return;
    void this.deps.workspaceState.update(LAST_SESSION_KEY, sessionId);
  }

  /** New chat: a reload then opens an empty chat, not the one left behind (that stays in the history). */
  forget(): void {
    void this.deps.workspaceState.update(LAST_SESSION_KEY, undefined);
  }

  /**
   * First start in this window: reattach the workspace's last chat. On failure the panel starts a new chat and says
   * why in one sentence. Runs before the runtime counts as ready, so no prompt can slip in before the attach.
   */
  async restoreLast(client: RuntimeClient): Promise<void> {
    try {
      await this.reopenLast(client);
    } finally {
      this.restoreSettled = true;
    }
  }

  private async reopenLast(client: RuntimeClient): Promise<void> {
    const id = this.deps.workspaceState.get<string>(LAST_SESSION_KEY);
    // (A prompt typed while the runtime started is not a conversation yet: it is sent after the restore, in it.)
    if (!id || this.deps.store.conversationStarted) return;
    try {
      let attached = await client.attachSession({ sessionId: id });
      // Right after a reload the previous window's runtime may still be shutting down and hold the chat for a moment.
      for (let i = 0; i < RELOAD_RETRIES && !attached.attached && attached.reason === 'busy'; i++) {
        await new Promise((r) => setTimeout(r, 500));
        attached = await client.attachSession({ sessionId: id });
      }
      if (!attached.attached) {
        this.deps.log(`last chat ${id} not reopened: ${attached.reason} (${attached.message})`);
        this.forget();
        this.deps.store.addNotice(`The last chat could not be reopened: ${attachFailureReason(attached.reason)}. This is a new chat.`);
        return;
      }
      await this.load(client, attached);
      this.deps.log(`reopened the last chat ${id} (${attached.messageCount} messages)`);
    } catch (e) {
      this.deps.log(`last chat ${id} not reopened: ${text(e)}`);
      this.forget();
      // Attached but not shown (its details could not be read): start afresh, so the panel and the runtime agree.
      await client.reset().catch(() => undefined);
      this.deps.store.addNotice('The last chat could not be reopened (the agentcli output has the details). This is a new chat.');
    }
  }

  /** "Open Chat History…": this folder's saved chats, newest first; choose one to continue it, or delete it. */
  async pick(): Promise<void> {
    let client: RuntimeClient;
    try {
      client = await this.deps.client();
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not open the chat history: ${text(e)}`, 'Show Output').then((p) => p && vscode.commands.executeCommand('agentcli.showOutput'));
      return;
    }
    const qp = vscode.window.createQuickPick<PickItem>();
    qp.title = 'Chat History';
    qp.placeholder = 'Choose a chat to continue it (the trash button deletes one)';
    qp.matchOnDescription = true;
    let current = '';
    let loaded: ResultOf<'getHistory'>['entries'] = [];
    let total = 0;
    const render = () => {
      const now = Date.now();
      const rows: PickItem[] = loaded.map((e) => {
        const row = historyRow(e, current, now);
        return { label: row.label, description: row.description, sessionId: row.sessionId, buttons: row.current ? [] : [DELETE_BUTTON] };
      });
      if (loaded.length < total) rows.push({ label: `$(history) Show older chats (${total - loaded.length} more)`, more: true, alwaysShow: true });
      if (rows.length === 0) rows.push({ label: 'No saved chats in this folder yet', description: 'a chat is saved from its first prompt on', alwaysShow: true });
      qp.items = rows;
    };
    const fetchPage = async (page: number) => {
      qp.busy = true;
      try {
        const [h, state] = await Promise.all([client.getHistory({ page, pageSize: PAGE_SIZE }), client.getState()]);
        current = state.sessionId;
        loaded = page === 1 ? h.entries : [...loaded, ...h.entries];
        total = h.total;
        render();
      } catch (e) {
        qp.hide();
        void vscode.window.showErrorMessage(`Could not list the saved chats: ${text(e)}`);
      } finally {
        qp.busy = false;
      }
    };
    qp.onDidTriggerItemButton(async ({ item }) => {
      if (!item.sessionId) return;
      let r: ResultOf<'deleteSession'>;
      try {
        r = await client.deleteSession({ sessionId: item.sessionId });
      } catch (e) {
        void vscode.window.showErrorMessage(`The chat was not deleted: ${text(e)}.`);
        return;
      }
      if (!r.deleted) {
        this.deps.log(`chat ${item.sessionId} not deleted: ${r.message}`);
        void vscode.window.showWarningMessage(`The chat was not deleted: ${deleteFailureReason(r.reason)}.`);
        return;
      }
      if (this.deps.workspaceState.get<string>(LAST_SESSION_KEY) === item.sessionId) this.forget();
      loaded = loaded.filter((e) => e.sessionId !== item.sessionId);
      total = Math.max(0, total - 1);
      render();
    });
    qp.onDidAccept(async () => {
      const item = qp.selectedItems[0];
      if (item?.more) {
        await fetchPage(Math.floor(loaded.length / PAGE_SIZE) + 1);
        return;
      }
      qp.hide();
      if (item?.sessionId && item.sessionId !== current) await this.open(client, item.sessionId);
    });
    qp.onDidHide(() => qp.dispose());
    qp.show();
    await fetchPage(1);
  }

  /** Continues a chat chosen in the history. */
  private async open(client: RuntimeClient, sessionId: string): Promise<void> {
    try {
      const attached = await client.attachSession({ sessionId });
      if (!attached.attached) {
        void vscode.window.showWarningMessage(`The chat could not be reopened: ${attachFailureReason(attached.reason)}.`);
        return;
      }
      await this.load(client, attached);
    } catch (e) {
      if (e instanceof RunInProgressError) {
        void vscode.window.showWarningMessage('The agent is still working: wait for the run to finish or stop it, then open the chat again.', 'Stop').then((p) => p && vscode.commands.executeCommand('agentcli.stop'));
      } else if (e instanceof BatchPendingError) {
        void vscode.window.showWarningMessage('Proposed changes are waiting for your decision: accept or reject them, then open the chat again.', 'Review Changes').then((p) => p && vscode.commands.executeCommand('agentcli.reviewChanges'));
      } else {
        void vscode.window.showErrorMessage(`The chat could not be reopened: ${text(e)}`);
      }
    }
  }

  /**
   * An attached session (reopened here, or handed off by a terminal runtime: that answer has only the id): rebuild its
   * transcript from getSession and show it.
   */
  async load(client: RuntimeClient, attached: AttachedSession): Promise<void> {
    const details = await client.getSession({ sessionId: attached.sessionId });
    const { store } = this.deps;
    store.loadSaved(transcriptFromSession(details).map(inEditorWords), attached.pendingBatch ?? null);
    if (attached.unsavedChanges?.length) store.addNotice(`Proposed changes to ${attached.unsavedChanges.join(', ')} were not saved (they held a secret) and are gone.`);
    if ((attached.skippedLines ?? 0) > 0) store.addNotice('The last message of this chat was cut short when it was saved and is left out.');
    this.remember(attached.sessionId);
    this.deps.batchChanged();
    this.deps.post(store.initMessage());
    await this.refreshUsage(client);
  }

  /** The context meter: after each run, attach, reset and compaction. */
  async refreshUsage(client = this.deps.running()): Promise<void> {
    if (!client) return;
    try {
      const u = await client.getContextUsage();
      const usage = { usedTokens: u.usedTokens, ...(u.contextWindow ? { contextWindow: u.contextWindow } : {}) };
      this.deps.store.contextUsage = usage;
      this.deps.post({ type: 'contextUsage', usage });
      this.deps.setContext(HAS_CONVERSATION, u.messageCount > 0);
    } catch (e) {
      this.deps.log(`could not read the context usage: ${text(e)}`);
    }
  }

  /** "Compact Conversation": summarise the conversation now (the model writes the summary). */
  async compact(): Promise<void> {
    try {
      const client = await this.deps.client();
      const r = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'agentcli: summarising the conversation…' },
        () => client.compactContext(),
      );
      if (!r.compacted) void vscode.window.showInformationMessage('There is nothing new to compact in this conversation.');
      await this.refreshUsage(client);
    } catch (e) {
      if (e instanceof RunInProgressError) {
        void vscode.window.showWarningMessage('The agent is still working: compact the conversation after the run ends.');
        return;
      }
      // The model writes the summary: a failure is the provider's (key, model, server). The runtime's remedy names
      // terminal commands, so it goes to the log and the buttons lead to the settings instead.
      const [message, remedy] = text(e).split(/\. Remedy: /);
      if (remedy) this.deps.log(`compaction failed: ${message} (runtime remedy: ${remedy})`);
      void vscode.window.showErrorMessage(`Could not compact the conversation: ${message}. Check the model and its API key.`, 'Select Model…', 'Set API Key…', 'Show Output').then((p) => {
        if (p === 'Select Model…') void vscode.commands.executeCommand('agentcli.selectModel');
        else if (p === 'Set API Key…') void vscode.commands.executeCommand('agentcli.setApiKey');
        else if (p === 'Show Output') void vscode.commands.executeCommand('agentcli.showOutput');
      });
    }
  }
}

function text(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');
}
