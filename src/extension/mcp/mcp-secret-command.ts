/**
 * "agentcli: Set MCP Secret…": stores (or removes) a value `${secret:NAME}` stands for in the `env` and `headers` of
 * `agentcli.mcpServers`, in VS Code's secret storage only. Storing it re-applies the settings (SettingsSync watches
 * the secret storage), so the server restarts with it.
 */
import * as vscode from 'vscode';
import { mcpSecretKey, SECRET_NAME_PATTERN, SECRET_NAME_RULE, secretRefs } from './server-settings';

export function registerMcpSecretCommand(secrets: vscode.SecretStorage): vscode.Disposable {
  return vscode.commands.registerCommand('agentcli.setMcpSecret', async () => {
    // offer the first referenced secret that is not stored yet
    const referenced = secretRefs(vscode.workspace.getConfiguration('agentcli').inspect('mcpServers')?.globalValue);
    let suggestion = '';
    for (const name of referenced) {
      if (!(await secrets.get(mcpSecretKey(name)))) {
        suggestion = name;
        break;
      }
    }
    const name = await vscode.window.showInputBox({
      title: 'Set MCP Secret (1/2): name',
      prompt: 'The NAME of ${secret:NAME} in the env or headers of agentcli.mcpServers',
      value: suggestion,
      validateInput: (v) => (SECRET_NAME_PATTERN.test(v.trim()) ? undefined : `Use ${SECRET_NAME_RULE}.`),
      ignoreFocusOut: true,
    });
    if (name === undefined) return;
    const key = mcpSecretKey(name.trim());
    const existing = await secrets.get(key);
    const value = await vscode.window.showInputBox({
      title: `Set MCP Secret (2/2): ${name.trim()}`,
      prompt: existing
        ? 'A value is stored. Type a new one to replace it, or leave empty and press Enter to remove it.'
        : "Paste the value. It is kept in VS Code's secret storage, never in settings files.",
      password: true,
      ignoreFocusOut: true,
      placeHolder: existing ? '(stored)' : 'value',
    });
    if (value === undefined) return;
    if (value.trim() === '') {
      if (existing) {
        await secrets.delete(key);
        void vscode.window.showInformationMessage(`Removed the MCP secret ${name.trim()}.`);
      }
      return;
    }
    await secrets.store(key, value.trim());
    const used = referenced.includes(name.trim());
    void vscode.window.showInformationMessage(
      used
        ? `Saved the MCP secret ${name.trim()} in VS Code's secret storage; the MCP servers that use it are restarted with it.`
        : `Saved the MCP secret ${name.trim()}. Use it as \${secret:${name.trim()}} in the env or headers of agentcli.mcpServers (user settings).`,
    );
  });
}
