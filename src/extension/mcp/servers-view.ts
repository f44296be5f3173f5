/**
 * The "MCP Servers" view in the agentcli side bar: each configured server with its state (connected, starting,
 * failed, disabled), tool count and last error, its tools as children. Read from getToolsRegistry when the runtime
 * is ready and on every `tools_changed`; it never starts the runtime itself. Servers come from `agentcli.mcpServers`
 * and the config files; the runtime has no per-server restart, so the view offers "Restart Runtime".
 */
import * as vscode from 'vscode';
import type { AgentEvent } from '../../protocol/events';
import type { RuntimeClient } from '../../sdk/client';
import { serverNodes, type ServerNode, type ToolNode } from './server-nodes';

export const MCP_VIEW_ID = 'agentcli.mcpServers';
type Node = ServerNode | ToolNode;

export interface McpViewHost {
  readonly running: RuntimeClient | undefined;
  onEvent(listener: (e: AgentEvent) => void): vscode.Disposable;
  onReady(listener: () => void): vscode.Disposable;
  onStatus(listener: (s: { status: string }) => void): vscode.Disposable;
}

class ServersTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private nodes: ServerNode[] = [];
  /** Shown instead of the tree when there is nothing to list. */
  message: string | undefined = 'The agentcli runtime is not running yet: open the chat to start it.';
  private loading: Promise<void> | undefined;
  private again = false;

  constructor(private readonly host: McpViewHost, private readonly messageChanged: () => void) {}

  /** Re-reads the registry; calls made while one is under way coalesce into one more read. */
  refresh(): Promise<void> {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = this.load().finally(() => {
      this.loading = undefined;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const client = this.host.running;
    if (!client) {
      this.show([], 'The agentcli runtime is not running: open the chat to start it.');
      return;
    }
    try {
      const nodes = serverNodes(await client.getToolsRegistry());
      this.show(nodes, nodes.length === 0 ? 'No MCP servers are configured. Add them in the setting agentcli.mcpServers.' : undefined);
    } catch (e) {
      this.show([], `The MCP servers could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  clear(message: string): void {
    this.show([], message);
  }

  private show(nodes: ServerNode[], message: string | undefined): void {
    this.nodes = nodes;
    this.message = message;
    this.messageChanged();
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.nodes;
    return node.kind === 'server' ? node.tools : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const collapsible = node.kind === 'server' && node.tools.length > 0 ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(node.label, collapsible);
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon.id, node.icon.color ? new vscode.ThemeColor(node.icon.color) : undefined);
    item.contextValue = node.kind === 'server' ? 'agentcli.mcpServer' : 'agentcli.mcpTool';
    if (node.kind === 'server') item.id = `mcp-server:${node.name}`;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerMcpServersView(host: McpViewHost): vscode.Disposable[] {
  // the callback runs only after a refresh, once the view exists
  const tree = new ServersTree(host, () => {
    view.message = tree.message;
  });
  const view = vscode.window.createTreeView(MCP_VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  view.message = tree.message;
  return [
    tree,
    view,
    host.onReady(() => void tree.refresh()),
    host.onEvent((e) => {
      if (e.type === 'tools_changed') void tree.refresh();
    }),
    host.onStatus((s) => {
      if (s.status === 'crashed' || s.status === 'restarting') tree.clear(s.status === 'crashed' ? 'The agentcli runtime stopped: restart it to see the MCP servers.' : 'The agentcli runtime is restarting…');
    }),
    view.onDidChangeVisibility((e) => {
      if (e.visible) void tree.refresh();
    }),
    vscode.commands.registerCommand('agentcli.refreshMcpServers', () => tree.refresh()),
  ];
}
