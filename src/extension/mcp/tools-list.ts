/**
 * "agentcli: Show Tools": the runtime's tool registry (getToolsRegistry) as a quick pick — each tool's name, where it
 * comes from, and whether the model is offered it (and why not) — with the MCP servers' state as separators' rows.
 */
import * as vscode from 'vscode';
import type { RuntimeClient } from '../../sdk/client';
import { toolRows, type ToolRow } from './tool-rows';

export function registerShowTools(client: () => Promise<RuntimeClient>): vscode.Disposable {
  return vscode.commands.registerCommand('agentcli.showTools', async () => {
    let rows: ToolRow[];
    try {
      rows = toolRows(await (await client()).getToolsRegistry());
    } catch (e) {
      void vscode.window.showErrorMessage(`Could not list the agent's tools: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const items = rows.map((r): vscode.QuickPickItem => (r.kind === 'separator' ? { label: r.label, kind: vscode.QuickPickItemKind.Separator } : { label: r.label, description: r.description, detail: r.detail }));
    const count = rows.filter((r) => r.kind !== 'separator' && r.label.startsWith('$(check)')).length;
    await vscode.window.showQuickPick(items, { title: 'Agent Tools', placeHolder: `${count} tool${count === 1 ? '' : 's'} offered to the model; type to filter`, matchOnDescription: true, matchOnDetail: true });
  });
}
