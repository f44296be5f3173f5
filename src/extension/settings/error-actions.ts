/**
 * The buttons of errors that name their fix: "Open Settings" (exactly that setting), "Set API Key…", "Select Model…",
 * "Select Provider…". One internal command runs them for the panel's error cards and the notifications alike; it
 * checks that the key names a setting or secret of that kind, whoever calls it.
 */
import * as vscode from 'vscode';
import { errorActions, isErrorActionKind } from '../../shared/chat/errorActions';
import type { Output } from '../output';
import { editorErrorOf, isSettingKey, notificationText, providerOfKey, secretOf, type EditorError } from './error-wording';
import { secretCommandId, type ProviderName } from './table';
import { settingId } from './to-config';

export const RUN_ERROR_ACTION_COMMAND = 'agentcli.runErrorAction';

export interface ErrorActionDeps {
  selectModel: (provider: ProviderName) => Promise<void>;
  selectProvider: () => Promise<void>;
}

/** The Settings editor, filtered to exactly one setting (`@id:` matches the id, not words in descriptions). */
export function openSetting(key: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', `@id:${settingId(key)}`);
}

export function registerErrorActions(deps: ErrorActionDeps, output: Output): vscode.Disposable {
  return vscode.commands.registerCommand(RUN_ERROR_ACTION_COMMAND, async (kind: unknown, configKey: unknown) => {
    const refused = (why: string) => output.warn(`error action refused: ${why}`);
    if (!isErrorActionKind(kind) || typeof configKey !== 'string') return refused(`unknown action ${JSON.stringify(kind)}`);
    switch (kind) {
      case 'openSetting':
        if (!isSettingKey(configKey)) return refused(`"${configKey}" is no agentcli setting`);
        await openSetting(configKey);
        return;
      case 'setApiKey': {
        const secret = secretOf(configKey);
        if (!secret) return refused(`"${configKey}" is no agentcli secret`);
        await vscode.commands.executeCommand(secretCommandId(secret.key));
        return;
      }
      case 'selectModel': {
        const provider = providerOfKey(configKey);
        if (!provider) return refused(`"${configKey}" names no provider`);
        await deps.selectModel(provider);
        return;
      }
      case 'selectProvider':
        await deps.selectProvider();
        return;
    }
  });
}

/**
 * A failed request as a notification in the editor's words, with the buttons of its fix; the runtime's own text
 * (protocol code, terminal advice) goes to the output channel. `context` says what failed (`Could not switch to X`).
 */
export async function showEditorError(output: Output, context: string, e: unknown): Promise<void> {
  output.error(`${context}: ${e instanceof Error ? e.message : String(e)}`);
  await notifyError(editorErrorOf(e), context);
}

/** An error in editor words as a notification whose buttons are its fix's; a click runs that fix. */
export async function notifyError(error: EditorError, context?: string): Promise<void> {
  const actions = error.fix ? errorActions(error.fix) : [];
  const picked = await vscode.window.showErrorMessage(notificationText(error, context), ...actions.map((a) => a.label));
  const action = actions.find((a) => a.label === picked);
  if (action) await vscode.commands.executeCommand(RUN_ERROR_ACTION_COMMAND, action.kind, action.configKey);
}
