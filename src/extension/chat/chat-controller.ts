/**
 * Handles every (already validated) message from the chat webview: prompts with their context, stop, new chat,
 * permission and directory answers, batch review and decisions, restart, clipboard, opening files.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ErrorFix } from '../../protocol/errors';
import type { PromptContext } from '../../protocol/records';
import { BatchPendingError, RunInProgressError } from '../../sdk/errors';
import type { RuntimeClient } from '../../sdk/client';
import type { ContextChip, FromWebview, FromWebviewOf, ToWebviewInput } from '../../shared/chat/messages';
import type { BatchReview } from '../changes/batch-review';
import type { UndoChanges } from '../changes/undo-changes';
import type { PermissionPrompts } from '../permissions/permission-prompts';
import { RUN_ERROR_ACTION_COMMAND } from '../settings/error-actions';
import { editorErrorOf } from '../settings/error-wording';
import type { RuntimeHost } from '../host/runtime-host';
import type { SessionStore } from '../session/session-store';
import { WorkspaceFileSearch } from './file-search';
import { insideFolder } from './mention-path';

export interface ChatControllerDeps {
  host: RuntimeHost;
  store: SessionStore;
  prompts: PermissionPrompts;
  batches: BatchReview;
  post: (message: ToWebviewInput) => void;
  log: (line: string) => void;
  /** Refocus the chat panel after opening an editor from it (the diff editor must not keep the typing focus). */
  refocusPanel: () => Promise<void>;
  /** The conversation was reset (New chat). */
  newChatStarted: () => void;
  /** The store's panel state changed (e.g. accepting a plan ended plan mode): tell the panel and the status bar. */
  stateChanged: () => void;
  /** The last chat is about to be reopened (after a reload): the panel keeps the copy it saved until it arrives. */
  restorePending: () => boolean;
  /** Undo of applied batches (the cards' Undo button). */
  undo: Pick<UndoChanges, 'undoBatch' | 'postState'>;
}

/** Files mentioned with `@path` are sent as file context up to this size; larger ones go by path only. */
const MAX_MENTION_BYTES = 200_000;

export class ChatController implements vscode.Disposable {
  private readonly files = new WorkspaceFileSearch();
  /** The prompt on its way to the runtime (its @ files read, its request sent), and whether Stop was pressed meanwhile. */
  private sending: { stopAsked: boolean } | undefined;

  constructor(private readonly deps: ChatControllerDeps) {}

  dispose(): void {
    this.files.dispose();
  }

  async handle(m: FromWebview): Promise<void> {
    const { deps } = this;
    switch (m.type) {
      case 'ready':
        deps.store.runtime = deps.host.status;
        if (deps.restorePending()) {
          deps.post({ type: 'state', state: deps.store.state });
          deps.post({ type: 'runtimeStatus', runtime: deps.store.runtime });
        } else {
          deps.post(deps.store.initMessage());
        }
        deps.undo.postState();
        void deps.host.ensureStarted().catch(() => undefined); // the status message tells the panel why
        return;
      case 'loadOlder':
        deps.post(deps.store.olderItems(m.beforeId));
        return;
      case 'sendPrompt':
        return this.sendPrompt(m);
      case 'abort':
        // Stop shows from Enter on: a Stop pressed while the prompt is still on its way (the runtime starting, @ files
        // read) stops its run as soon as it starts.
        if (this.sending) {
          this.sending.stopAsked = true;
          return;
        }
        await this.withClient('stop the run', (c) => c.abort());
        return;
      case 'newChat':
        await this.withClient('start a new chat', async (c) => {
          await c.reset();
          deps.store.newChat();
          deps.post(deps.store.initMessage());
          deps.newChatStarted();
        });
        return;
      case 'permissionDecision':
        return deps.prompts.answerPermission(m.requestId, m.choice, m.alternative);
      case 'permissionShown':
        return deps.prompts.acknowledgePermission(m.requestId);
      case 'directoryDecision':
        return deps.prompts.answerDirectory(m.requestId, m.allowed, m.scope);
      case 'directoryShown':
        return deps.prompts.acknowledgeDirectory(m.requestId);
      case 'reviewBatch':
        await deps.batches.review(m.batchId, m.changeId);
        if (!m.changeId) await deps.refocusPanel(); // the multi-file diff editor has no preserveFocus option
        return;
      case 'decideBatch':
        return deps.batches.decide(m.decision, m.changeIds, m.batchId);
      case 'pickBatchFiles':
        return deps.batches.acceptSelected(m.batchId);
      case 'undoBatch':
        return deps.undo.undoBatch(m.batchId);
      case 'planDecision':
        await this.withClient(m.decision === 'accept' ? 'start the plan' : 'send the plan back for revision', async (c) => {
          await c.respondToPlan({ planId: m.planId, decision: m.decision, note: m.note });
          deps.store.planAnswered(m.planId, m.decision);
          deps.post({ type: 'planAnswered', planId: m.planId, decision: m.decision });
          deps.stateChanged();
        });
        return;
      case 'restartRuntime':
        await deps.host.restart().catch((e: unknown) => deps.log(`restart failed: ${e instanceof Error ? e.message : String(e)}`));
        return;
      case 'copyText':
        await vscode.env.clipboard.writeText(m.text);
        return;
      case 'removeContext':
        deps.store.removeContext(m.chipId);
        return;
      case 'openFile':
        return this.openFile(m.path, m.line);
      case 'selectModel':
        await vscode.commands.executeCommand('agentcli.selectModel');
        return;
      case 'openHistory':
        await vscode.commands.executeCommand('agentcli.openHistory');
        return;
      case 'compactContext':
        await vscode.commands.executeCommand('agentcli.compactConversation');
        return;
      case 'findFiles':
        return this.findFiles(m.requestId, m.query);
      case 'webviewError':
        deps.log(`webview: ${m.message}`);
        return;
      case 'errorAction':
        // the command checks that the key names a setting or secret of that kind
        await vscode.commands.executeCommand(RUN_ERROR_ACTION_COMMAND, m.kind, m.configKey);
        return;
    }
  }

  private async sendPrompt(m: FromWebviewOf<'sendPrompt'>): Promise<void> {
    const sending = { stopAsked: false };
    this.sending = sending;
    try {
      await this.sendPromptNow(m, sending);
    } finally {
      if (this.sending === sending) this.sending = undefined;
    }
  }

  private async sendPromptNow(m: FromWebviewOf<'sendPrompt'>, sending: { stopAsked: boolean }): Promise<void> {
    const { store, post } = this.deps;
    store.addPrompt(m.promptId, m.text, m.context);
    const fail = (message: string, remedy?: string, fix?: ErrorFix) => {
      store.promptFailed(m.promptId, message, remedy, fix);
      post({ type: 'error', message, remedy, fix, promptId: m.promptId });
    };
    let client: RuntimeClient;
    try {
      client = await this.deps.host.ensureStarted();
    } catch (e) {
      fail(`The runtime is not running. ${e instanceof Error ? e.message : String(e)}`, 'Click Restart, or see the agentcli output for details.');
      return;
    }
    const context: PromptContext[] = [...m.context.map(stripChip), ...(await this.mentionContext(m.promptId, m.mentions))];
    try {
      await client.request('prompt', { message: m.text, context: context.length ? context : undefined });
      store.context = [];
    } catch (e) {
      if (e instanceof BatchPendingError) fail('Proposed changes are waiting for your decision.', 'Accept or reject the pending changes, then send again.');
      else if (e instanceof RunInProgressError) fail('The agent is still working on the previous prompt.', 'Wait for it to finish, or press Stop.');
      else {
        this.deps.log(`prompt refused: ${e instanceof Error ? e.message : String(e)}`);
        const shown = editorErrorOf(e);
        fail(`The prompt was not sent: ${shown.message}`, shown.remedy, shown.fix);
      }
      return;
    }
    if (sending.stopAsked) await this.withClient('stop the run', (c) => c.abort());
  }

  /**
   * `@path` mentions become file context; unreadable paths are reported in the transcript, not silently dropped. Only
   * files inside the workspace are read (after resolving symlinks): a pasted `@../../.ssh/id_rsa` or `@/etc/shadow`
   * is refused, as the agent's own reads outside the workspace need an approval.
   */
  private async mentionContext(promptId: string, mentions: string[]): Promise<PromptContext[]> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const out: PromptContext[] = [];
    const refused: string[] = [];
    const refuse = (mention: string, why: string) => {
      const message = `@${mention}: ${why}; it was not attached.`;
      refused.push(mention);
      this.deps.store.addError(message);
      this.deps.post({ type: 'error', message });
    };
    try {
      await this.readMentions(root, mentions, out, refuse);
    } finally {
      // the sent prompt's chips show these as not attached
      if (refused.length > 0) {
        this.deps.store.mentionsRefused(promptId, refused);
        this.deps.post({ type: 'mentionsRefused', promptId, paths: refused });
      }
    }
    return out;
  }

  private async readMentions(root: vscode.Uri | undefined, mentions: string[], out: PromptContext[], refuse: (mention: string, why: string) => void): Promise<void> {
    for (const mention of new Set(mentions)) {
      if (!root) {
        refuse(mention, 'no folder is open to find it in');
        continue;
      }
      const inside = await insideFolder(root.fsPath, mention);
      if (inside === undefined) {
        refuse(mention, 'no such file in the workspace');
        continue;
      }
      if (!inside.ok) {
        refuse(mention, 'it is outside the workspace (the agent can ask for access to it instead)');
        continue;
      }
      const uri = vscode.Uri.file(inside.path);
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type & vscode.FileType.Directory) {
          out.push({ kind: 'file', path: mention });
          continue;
        }
        const text = stat.size <= MAX_MENTION_BYTES ? new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) : undefined;
        out.push({ kind: 'file', path: mention, text });
      } catch {
        refuse(mention, 'no such file in the workspace');
      }
    }
  }

  /** The `@` suggestions for the prompt box; a listing failure is said in the list, not thrown. */
  private async findFiles(requestId: number, query: string): Promise<void> {
    try {
      this.deps.post({ type: 'fileMatches', requestId, paths: await this.files.search(query) });
    } catch (e) {
      this.deps.log(`@ suggestions: ${e instanceof Error ? e.message : String(e)}`);
      this.deps.post({ type: 'fileMatches', requestId, paths: [], error: `Could not list the workspace files: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  private async openFile(p: string, line?: number): Promise<void> {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = path.isAbsolute(p) ? vscode.Uri.file(p) : root ? vscode.Uri.joinPath(root, p) : vscode.Uri.file(p);
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      const pos = line ? new vscode.Position(Math.min(line - 1, doc.lineCount - 1), 0) : undefined;
      await vscode.window.showTextDocument(doc, { preview: true, selection: pos ? new vscode.Range(pos, pos) : undefined });
    } catch (e) {
      void vscode.window.showWarningMessage(`Cannot open ${p}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async withClient(what: string, f: (c: RuntimeClient) => Promise<unknown>): Promise<void> {
    const client = this.deps.host.running;
    if (!client) {
      this.deps.post({ type: 'error', message: `Cannot ${what}: the runtime is not running.`, remedy: 'Click Restart.' });
      return;
    }
    try {
      await f(client);
    } catch (e) {
      this.deps.log(`could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
      const shown = editorErrorOf(e);
      this.deps.post({ type: 'error', message: `Could not ${what}: ${shown.message}`, remedy: shown.remedy, fix: shown.fix });
    }
  }
}

function stripChip(chip: ContextChip): PromptContext {
  const { id: _id, ...rest } = chip;
  return rest;
}
