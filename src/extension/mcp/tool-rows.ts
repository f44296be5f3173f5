/** The rows of "agentcli: Show Tools" from getToolsRegistry: pure, no `vscode` import. */
import type { McpServerStatus, ToolRegistryEntry } from '../../protocol/methods';

const SOURCE_LABEL = { builtin: 'built-in', editor: 'editor', mcp: 'MCP' } as const;
const SOURCE_ORDER = ['builtin', 'editor', 'mcp'] as const;

export interface ToolRow {
  label: string;
  description: string;
  detail: string;
  kind?: 'separator';
}

function toolRow(t: ToolRegistryEntry): ToolRow {
  const source = t.source === 'mcp' && t.server ? `MCP ${t.server}` : SOURCE_LABEL[t.source];
  const state = t.enabled ? (t.readOnly ? 'enabled, read-only' : 'enabled') : `disabled: ${t.disabledReason ?? 'no reason given'}`;
  return {
    label: `${t.enabled ? '$(check)' : '$(circle-slash)'} ${t.name}`,
    description: `${source} · ${state}`,
    detail: `${t.description.split('\n')[0] ?? ''} (permission rule: ${t.permissionRule})`,
  };
}

function serverLine(s: McpServerStatus): string {
  const tools = `${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}`;
  return `${s.state}${s.error ? `: ${s.error}` : ''} · ${tools}${s.restarts > 0 ? ` · restarted ${s.restarts}×` : ''}`;
}

/** The pick's rows: tools grouped by source (built-in, editor, MCP by server), a server without tools still listed. */
export function toolRows(registry: { tools: ToolRegistryEntry[]; servers: McpServerStatus[] }): ToolRow[] {
  const rows: ToolRow[] = [];
  for (const source of SOURCE_ORDER) {
    const tools = registry.tools.filter((t) => t.source === source).sort((a, b) => a.name.localeCompare(b.name));
    if (source !== 'mcp') {
      if (tools.length === 0) continue;
      rows.push({ label: `${SOURCE_LABEL[source]} tools`, description: '', detail: '', kind: 'separator' });
      rows.push(...tools.map(toolRow));
      continue;
    }
    for (const server of registry.servers) {
      rows.push({ label: `MCP server ${server.name}`, description: '', detail: '', kind: 'separator' });
      const own = tools.filter((t) => t.server === server.name);
      if (own.length === 0) rows.push({ label: `$(server) ${server.name}`, description: serverLine(server), detail: server.stderrTail ? `Last output: ${server.stderrTail.split('\n').slice(-1)[0] ?? ''}` : 'No tools offered' });
      else rows.push(...own.map(toolRow));
    }
  }
  return rows;
}
