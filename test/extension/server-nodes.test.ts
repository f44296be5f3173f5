import assert from 'node:assert/strict';
import type { McpServerStatus, ToolRegistryEntry } from '../../src/protocol/methods';
import { serverNodes } from '../../src/extension/mcp/server-nodes';

const tool = (name: string, server: string | undefined, extra: Partial<ToolRegistryEntry> = {}): ToolRegistryEntry => ({
  name,
  source: server ? 'mcp' : 'builtin',
  ...(server ? { server } : {}),
  description: `does ${name}`,
  inputSchema: {},
  permissionRule: server ? `Mcp(${server}:${name})` : 'Read',
  readOnly: false,
  enabled: true,
  ...extra,
});
const status = (s: Partial<McpServerStatus> & { name: string; state: McpServerStatus['state'] }): McpServerStatus => ({ toolCount: 0, restarts: 0, ...s });

describe('extension: MCP Servers view nodes', () => {
  it('lists each server with its state, tool count and tools (short names, sorted), and the last error of a failed one', () => {
    const nodes = serverNodes({
      tools: [tool('read_file', undefined), tool('mcp__gh__search', 'gh'), tool('mcp__gh__issues', 'gh', { enabled: false, disabledReason: 'plan mode' })],
      servers: [
        status({ name: 'gh', state: 'ready', transport: 'stdio', toolCount: 2, restarts: 1 }),
        status({ name: 'db', state: 'failed', transport: 'stdio', error: 'exited with code 1', stderrTail: 'cannot connect' }),
        status({ name: 'web', state: 'starting' }),
      ],
    });
    assert.deepEqual(nodes.map((n) => [n.label, n.description, n.icon.id]), [
      ['gh', 'connected · 2 tools · restarted 1×', 'pass-filled'],
      ['db', 'failed: exited with code 1', 'error'],
      ['web', 'starting · 0 tools', 'loading~spin'],
    ]);
    assert.deepEqual(nodes[0]!.tools.map((t) => [t.label, t.description]), [['issues', 'disabled: plan mode'], ['search', '']]);
    assert.match(nodes[1]!.tooltip, /Last error: exited with code 1\n\nLast output:\ncannot connect/);
    assert.equal(nodes[1]!.tools.length, 0);
  });
});
