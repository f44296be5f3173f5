/**
 * Command palette commands that are not owned by a feature module (those register their own).
 */
import * as vscode from 'vscode';
import type { App } from './app';
import { CHAT_VIEW_ID } from './chat/chat-view-provider';
import { registerAddSelection } from './context/add-selection';
import { registerHandoffCommands } from './handoff/handoff-commands';
import { registerMcpSecretCommand } from './mcp/mcp-secret-command';
import { registerShowTools } from './mcp/tools-list';
import { registerLoopStrategyCommand } from './modes/loop-strategy';
import { registerPresetCommand } from './settings/preset-command';
import { registerSecretCommands } from './settings/secret-commands';
import { registerSkillCommands } from './skills/skill-commands';
import { writeSetting } from './settings/settings-sync';

export function registerCommands(app: App, context: vscode.ExtensionContext): vscode.Disposable[] {
  const withClient = (what: string, f: (c: Awaited<ReturnType<App['client']>>) => Promise<unknown>) => async () => {
    try {
      await f(await app.client());
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not ${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const b = app.batches;
  return [
    vscode.commands.registerCommand('agentcli.openChat', () => vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`)),
    vscode.commands.registerCommand('agentcli.showOutput', () => app.output.show()),
    vscode.commands.registerCommand('agentcli.restartRuntime', async () => {
      try {
        await app.host.restart();
      } catch (e) {
        void vscode.window.showErrorMessage(`${e instanceof Error ? e.message : String(e)}`, 'Show Output').then((p) => p && app.output.show());
      }
    }),
    vscode.commands.registerCommand(
      'agentcli.stop',
      withClient('stop the run', (c) => c.abort()),
    ),
    vscode.commands.registerCommand(
      'agentcli.newChat',
      withClient('start a new chat', async (c) => {
        await c.reset();
        app.store.newChat();
        app.post(app.store.initMessage());
        app.newChatStarted();
      }),
    ),
    vscode.commands.registerCommand('agentcli.openHistory', () => app.history.pick()),
    vscode.commands.registerCommand('agentcli.compactConversation', () => app.history.compact()),
    vscode.commands.registerCommand('agentcli.reviewChanges', () => b.review()),
    vscode.commands.registerCommand('agentcli.acceptAllChanges', () => b.decide('accept_all')),
    vscode.commands.registerCommand('agentcli.rejectAllChanges', () => b.decide('reject_all')),
    vscode.commands.registerCommand('agentcli.acceptSelectedChanges', () => b.acceptSelected()),
    vscode.commands.registerCommand('agentcli.undoLastChanges', () => app.undo.undoLast()),
    vscode.commands.registerCommand('agentcli.acceptFile', (uri?: vscode.Uri) => b.markFile(true, uri)),
    vscode.commands.registerCommand('agentcli.rejectFile', (uri?: vscode.Uri) => b.markFile(false, uri)),
    vscode.commands.registerCommand('agentcli.acceptHunk', (uri?: vscode.Uri) => b.hunks.mark(true, uri)),
    vscode.commands.registerCommand('agentcli.rejectHunk', (uri?: vscode.Uri) => b.hunks.mark(false, uri)),
    vscode.commands.registerCommand('agentcli.applyReviewedHunks', () => b.applyReviewed()),
    registerAddSelection((chip) => app.addContext(chip)),
    registerPresetCommand(),
    registerLoopStrategyCommand(writeSetting),
    registerShowTools(() => app.client()),
    ...registerSecretCommands(context.secrets),
    registerMcpSecretCommand(context.secrets),
    ...registerSkillCommands(() => app.client()),
    ...registerHandoffCommands({ client: () => app.client(), loadSession: (c, a) => app.history.load(c, a), log: (l) => app.output.info(l) }),
  ];
}
