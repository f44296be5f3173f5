/**
 * "agentcli: Set API Key (<provider>)" and "Set Client Secret (cloudhub)": stored in VS Code's SecretStorage only,
 * never in settings.json. The runtime gets them in the in-memory configure call (SettingsSync).
 */
import * as vscode from 'vscode';
import { SECRET_SETTINGS, secretCommandId } from './table';

export function registerSecretCommands(secrets: vscode.SecretStorage): vscode.Disposable[] {
  return SECRET_SETTINGS.map((s) =>
    vscode.commands.registerCommand(secretCommandId(s.key), async () => {
      const storageKey = `agentcli.${s.key}`;
      const existing = await secrets.get(storageKey);
      const value = await vscode.window.showInputBox({
        title: `agentcli: ${s.provider} ${s.label}`,
        prompt: existing
          ? `A ${s.label} is stored. Type a new one to replace it, or leave empty and press Enter to remove it.`
          : `Paste the ${s.provider} ${s.label}. It is kept in VS Code's secret storage, never in settings files.`,
        password: true,
        ignoreFocusOut: true,
        placeHolder: existing ? '(stored)' : s.label,
      });
      if (value === undefined) return;
      const trimmed = value.trim();
      if (trimmed === '') {
        if (existing) {
          await secrets.delete(storageKey);
          void vscode.window.showInformationMessage(`agentcli: the ${s.provider} ${s.label} was removed.`);
        }
        return;
      }
      await secrets.store(storageKey, trimmed);
      void vscode.window.showInformationMessage(`agentcli: the ${s.provider} ${s.label} was saved to secret storage.`);
    }),
  );
}
