/** The rows of the "MCP Servers" view from getToolsRegistry: pure, no `vscode` import. */
import type { McpServerStatus, ToolRegistryEntry } from '../../protocol/methods';

export interface ServerNode {
  kind: 'server';
  name: string;
  label: string;
  description: string;
  tooltip: string;
  /** A codicon id and its theme colour id. */
  icon: { id: string; color?: string };
  tools: ToolNode[];
}

export interface ToolNode {
  kind: 'tool';
  label: string;
  description: string;
  tooltip: string;
  icon: { id: string; color?: string };
}

const STATE_ICON: Record<McpServerStatus['state'], ServerNode['icon']> = {
  ready: { id: 'pass-filled', color: 'testing.iconPassed' },
  starting: { id: 'loading~spin' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  disabled: { id: 'circle-slash', color: 'disabledForeground' },
};
const STATE_WORD: Record<McpServerStatus['state'], string> = { ready: 'connected', starting: 'starting', failed: 'failed', disabled: 'disabled' };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function toolNode(t: ToolRegistryEntry, server: string): ToolNode {
  const prefix = `mcp__${server}__`;
  const label = t.name.startsWith(prefix) ? t.name.slice(prefix.length) : t.name;
  return {
    kind: 'tool',
    label,
    description: t.enabled ? (t.readOnly ? 'read-only' : '') : `disabled: ${t.disabledReason ?? 'no reason given'}`,
    tooltip: [t.description.trim() || '(no description)', `Model sees it as ${t.name}; permission rule ${t.permissionRule}.`].join('\n\n'),
    icon: t.enabled ? { id: 'tools' } : { id: 'circle-slash', color: 'disabledForeground' },
  };
}

/** One node per configured server (in the runtime's order) with its tools as children, sorted by name. */
export function serverNodes(registry: { tools: ToolRegistryEntry[]; servers: McpServerStatus[] }): ServerNode[] {
  return registry.servers.map((s) => {
    const tools = registry.tools
      .filter((t) => t.source === 'mcp' && t.server === s.name)
      .map((t) => toolNode(t, s.name))
      .sort((a, b) => a.label.localeCompare(b.label));
    const restarts = s.restarts > 0 ? ` · restarted ${s.restarts}×` : '';
    const description = s.state === 'failed' && s.error ? `failed: ${s.error}` : `${STATE_WORD[s.state]} · ${plural(s.toolCount, 'tool')}${restarts}`;
    const tooltip = [
      `${s.name} (${s.transport ?? 'unknown transport'}): ${STATE_WORD[s.state]}, ${plural(s.toolCount, 'tool')}${restarts}`,
      s.error ? `Last error: ${s.error}` : '',
      s.stderrTail ? `Last output:\n${s.stderrTail}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return { kind: 'server', name: s.name, label: s.name, description, tooltip, icon: STATE_ICON[s.state], tools };
  });
}
