import assert from 'node:assert/strict';
import { toolRows } from '../../src/extension/mcp/tool-rows';

const tool = (name: string, source: 'builtin' | 'editor' | 'mcp', extra: Record<string, unknown> = {}) => ({
  name, source, description: `${name} does things\nsecond line`, inputSchema: {}, permissionRule: 'Read', readOnly: true, enabled: true, ...extra,
});

describe('extension Show Tools rows', () => {
  it('groups tools by source, says why a tool is disabled, and lists an MCP server without tools with its state', () => {
    const rows = toolRows({
      tools: [
        tool('write_file', 'builtin', { readOnly: false, enabled: false, disabledReason: 'plan mode offers only read-only tools', permissionRule: 'Write' }),
        tool('read_file', 'builtin'),
        tool('editor_diagnostics', 'editor', { permissionRule: 'editor_diagnostics' }),
        tool('mcp__docs__search', 'mcp', { server: 'docs', permissionRule: 'Mcp(docs:search)' }),
      ],
      servers: [
        { name: 'docs', state: 'ready', toolCount: 1, restarts: 0 },
        { name: 'broken', state: 'failed', error: 'exited with code 1', toolCount: 0, restarts: 2, stderrTail: 'boot\nmodule not found' },
      ],
    });
    assert.deepEqual(rows.map((r) => (r.kind === 'separator' ? `-- ${r.label}` : r.label)), [
      '-- built-in tools',
      '$(check) read_file',
      '$(circle-slash) write_file',
      '-- editor tools',
      '$(check) editor_diagnostics',
      '-- MCP server docs',
      '$(check) mcp__docs__search',
      '-- MCP server broken',
      '$(server) broken',
    ]);
    assert.equal(rows[2]?.description, 'built-in · disabled: plan mode offers only read-only tools');
    assert.equal(rows[1]?.description, 'built-in · enabled, read-only');
    assert.equal(rows[1]?.detail, 'read_file does things (permission rule: Read)');
    assert.equal(rows[6]?.description, 'MCP docs · enabled, read-only');
    assert.equal(rows[8]?.description, 'failed: exited with code 1 · 0 tools · restarted 2×');
    assert.equal(rows[8]?.detail, 'Last output: module not found');
  });
});
