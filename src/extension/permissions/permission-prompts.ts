/**
 * Permission and directory-access requests: answered from the panel's cards, or from a notification with the
 * same choices when the panel is hidden. A request is acknowledged to the runtime as soon as it is on screen.
 */
import * as vscode from 'vscode';
import type { EventOf } from '../../protocol/events';
import type { RuntimeClient } from '../../sdk/client';
import type { PermissionDecisionChoice } from '../../shared/chat/messages';
import type { SessionStore } from '../session/session-store';

export interface PromptDeps {
  client: () => RuntimeClient | undefined;
  store: SessionStore;
  panelVisible: () => boolean;
  log: (line: string) => void;
}

const CHOICE_LABEL: Record<'once' | 'session' | 'always' | 'deny' | 'alternative', string> = {
  once: 'Allow once',
  session: 'Allow for this session',
  always: 'Always allow',
  deny: 'Deny',
  alternative: 'Suggest alternative…',
};

export class PermissionPrompts {
  constructor(private readonly deps: PromptDeps) {}

  /** A request arrived: the panel shows it as a card; when the panel is hidden a notification asks too. */
  onPermissionRequest(e: EventOf<'permission_request'>): void {
    if (this.deps.panelVisible()) return; // the card acknowledges itself when rendered (permissionShown)
    void this.acknowledgePermission(e.requestId);
    void this.notifyPermission(e);
  }

  onDirectoryRequest(e: EventOf<'directory_access_request'>): void {
    if (this.deps.panelVisible()) return;
    void this.acknowledgeDirectory(e.requestId);
    void this.notifyDirectory(e);
  }

  async acknowledgePermission(requestId: string): Promise<void> {
    const entry = this.deps.store.permissions.get(requestId);
    if (!entry || entry.acknowledged) return;
    entry.acknowledged = true;
    await this.call(`acknowledge permission ${requestId}`, (c) => c.acknowledgePermission(requestId));
  }

  async acknowledgeDirectory(requestId: string): Promise<void> {
    const entry = this.deps.store.directories.get(requestId);
    if (!entry || entry.acknowledged) return;
    entry.acknowledged = true;
    await this.call(`acknowledge directory access ${requestId}`, (c) => c.acknowledgeDirectoryAccess(requestId));
  }

  async answerPermission(requestId: string, choice: PermissionDecisionChoice, alternative?: string): Promise<void> {
    if (!this.deps.store.permissions.has(requestId)) return; // already answered elsewhere, or cancelled
    const params =
      choice === 'deny'
        ? alternative
          ? { requestId, alternative }
          : { requestId, allowed: false }
        : { requestId, allowed: true, scope: choice };
    await this.call(`answer permission ${requestId}`, (c) => c.permissionResponse(params));
  }

  async answerDirectory(requestId: string, allowed: boolean, scope?: 'once' | 'session'): Promise<void> {
    if (!this.deps.store.directories.has(requestId)) return;
    await this.call(`answer directory access ${requestId}`, (c) =>
      c.respondToDirectoryAccess(allowed ? { requestId, allowed, scope: scope ?? 'once' } : { requestId, allowed }),
    );
  }

  /** A toast fits three buttons: the two common answers, and "More…" with every choice the runtime offers. */
  private async notifyPermission(e: EventOf<'permission_request'>): Promise<void> {
    const paths = e.paths?.join(', ') ?? '';
    const detail = paths && !e.description.includes(paths) ? ` (${paths})` : '';
    const question = e.command ? `The agent wants to run: ${e.command}` : `The agent wants to use ${e.tool}: ${e.description}${detail}`;
    const quick = (['once', 'deny'] as const).filter((c) => e.choices.includes(c)).map((c) => CHOICE_LABEL[c]);
    const more = 'More…';
    const picked = await vscode.window.showWarningMessage(question, ...quick, more);
    if (!picked) return; // dismissed: the card in the panel still waits
    let choice = (Object.keys(CHOICE_LABEL) as (keyof typeof CHOICE_LABEL)[]).find((k) => CHOICE_LABEL[k] === picked);
    if (picked === more) {
      const rules = e.suggestedRules.length ? e.suggestedRules.join(', ') : undefined;
      const item = await vscode.window.showQuickPick(
        e.choices.map((c) => ({
          label: CHOICE_LABEL[c],
          choice: c,
          detail: c === 'always' && rules ? `Saves the rule ${rules}` : c === 'session' && rules ? `Until the session ends: ${rules}` : undefined,
        })),
        { title: question, placeHolder: 'Choose how to answer the agent', ignoreFocusOut: true },
      );
      choice = item?.choice;
    }
    if (choice === 'alternative') {
      const text = await vscode.window.showInputBox({
        title: `Instead of ${e.tool}`,
        prompt: 'Tell the agent what to do instead. The tool call is denied.',
        validateInput: (v) => (v.trim() ? undefined : 'Describe what to do instead, or press Esc.'),
      });
      if (text?.trim()) await this.answerPermission(e.requestId, 'deny', text.trim());
      return;
    }
    if (choice) await this.answerPermission(e.requestId, choice);
  }

  private async notifyDirectory(e: EventOf<'directory_access_request'>): Promise<void> {
    const picked = await vscode.window.showWarningMessage(
      `The agent wants to access ${e.path}, outside the workspace: ${e.reason}`,
      'Allow once',
      'Allow for this session',
      'Deny',
    );
    if (picked === 'Allow once') await this.answerDirectory(e.requestId, true, 'once');
    else if (picked === 'Allow for this session') await this.answerDirectory(e.requestId, true, 'session');
    else if (picked === 'Deny') await this.answerDirectory(e.requestId, false);
  }

  private async call(what: string, f: (c: RuntimeClient) => Promise<unknown>): Promise<void> {
    const client = this.deps.client();
    if (!client) {
      this.deps.log(`cannot ${what}: the runtime is not running`);
      return;
    }
    try {
      await f(client);
    } catch (e) {
      // An unknown id means the request was already settled (answered in the other place, or the run aborted).
      this.deps.log(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
