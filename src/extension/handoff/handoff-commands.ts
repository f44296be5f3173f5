/**
 * "agentcli: Continue in Browser" (createBrowserHandoff → the link opened through asExternalUri, so it works in a
 * remote window too) and "agentcli: Continue Latest Terminal Session Here" (attachLatestBrowserHandoff, then the
 * panel's transcript rebuilt the way a reopened chat is).
 */
import * as vscode from 'vscode';
import type { RuntimeClient } from '../../sdk/client';
import type { AttachedSession } from '../session/chat-history';
import { expiryTime, handoffOpenedMessage, handoffRefusal } from './handoff-items';

export interface HandoffDeps {
  client: () => Promise<RuntimeClient>;
  /** Rebuilds the panel's transcript from getSession (ChatHistory.load). */
  loadSession: (client: RuntimeClient, attached: AttachedSession) => Promise<void>;
  log: (line: string) => void;
}

const text = (e: unknown) => (e instanceof Error ? e.message : String(e)).replace(/\.$/, '');

async function continueInBrowser(deps: HandoffDeps): Promise<void> {
  let link: { url: string; expiresAt: string };
  try {
    link = await (await deps.client()).createBrowserHandoff();
  } catch (e) {
    void vscode.window.showErrorMessage(`The chat could not be handed to the browser: ${text(e)}.`);
    return;
  }
  const external = await vscode.env.asExternalUri(vscode.Uri.parse(link.url));
  const opened = await vscode.env.openExternal(external);
  if (opened) {
    void vscode.window.showInformationMessage(handoffOpenedMessage(expiryTime(link.expiresAt)));
    return;
  }
  // The link is a credential: copied only when the user asks, never written to the output.
  const pick = await vscode.window.showWarningMessage(`The browser could not be opened. Copy the link and open it yourself: it works once and expires at ${expiryTime(link.expiresAt)}.`, 'Copy Link');
  if (pick) await vscode.env.clipboard.writeText(external.toString(true));
}

async function continueTerminalSession(deps: HandoffDeps): Promise<void> {
  try {
    const client = await deps.client();
    const r = await client.attachLatestBrowserHandoff();
    if (!r.attached) {
      deps.log(`terminal session not continued here: ${r.reason}: ${r.message}`);
      const refusal = handoffRefusal(r.reason, r.message);
      const pick = await vscode.window.showWarningMessage(refusal.message, ...(refusal.button ? [refusal.button.title] : []));
      if (pick && refusal.button) await vscode.commands.executeCommand(refusal.button.command);
      return;
    }
    await deps.loadSession(client, { sessionId: r.sessionId });
    await vscode.commands.executeCommand('agentcli.openChat');
    deps.log(`continued terminal session ${r.sessionId} (${r.messageCount} messages)`);
  } catch (e) {
    void vscode.window.showErrorMessage(`The terminal session could not be continued here: ${text(e)}.`);
  }
}

export function registerHandoffCommands(deps: HandoffDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('agentcli.continueInBrowser', () => continueInBrowser(deps)),
    vscode.commands.registerCommand('agentcli.continueTerminalSession', () => continueTerminalSession(deps)),
  ];
}
