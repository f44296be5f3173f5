import assert from 'node:assert/strict';
import { buildToolsRegistry, createCoreTools } from '../../../src/runtime/tools/registry';

const mcpEntry = {
  name: 'mcp__x__echo',
  server: 'x',
  description: 'Echo',
  inputSchema: { type: 'object' },
  permissionRule: 'Mcp(x:echo)',
  enabled: true,
};

describe('tools registry', () => {
  it('lists built-in tools with the rule that covers each, then editor and MCP tools', () => {
    const entries = buildToolsRegistry({
      core: createCoreTools({ rgPath: null }),
      editor: [{ name: 'editor_diagnostics', description: 'Problems', parameters: { type: 'object' } }],
      mcp: [mcpEntry],
      planMode: false,
      restricted: false,
    });
    assert.deepEqual(
      entries.map((e) => [e.name, e.source, e.permissionRule, e.readOnly, e.enabled]),
      [
        ['read_file', 'builtin', 'Read', true, true],
        ['list_files', 'builtin', 'Read', true, true],
        ['grep', 'builtin', 'Read', true, true],
        ['write_file', 'builtin', 'Write', false, true],
        ['edit_file', 'builtin', 'Write', false, true],
        ['delete_file', 'builtin', 'Write', false, true],
        ['run_command', 'builtin', 'Bash', false, true],
        ['editor_diagnostics', 'editor', 'editor_diagnostics', true, true],
        ['mcp__x__echo', 'mcp', 'Mcp(x:echo)', false, true],
      ],
    );
    assert.equal((entries[0]?.inputSchema as { type?: string }).type, 'object');
  });

  it('plan mode and restricted mode disable the tools that are not read-only, saying why', () => {
    for (const [mode, why] of [
      [{ planMode: true, restricted: false }, /plan mode/],
      [{ planMode: false, restricted: true }, /restricted mode/],
    ] as const) {
      const entries = buildToolsRegistry({ core: createCoreTools({ rgPath: null }), editor: [], mcp: [mcpEntry], ...mode });
      const off = entries.filter((e) => !e.enabled);
      assert.deepEqual(off.map((e) => e.name), ['write_file', 'edit_file', 'delete_file', 'run_command', 'mcp__x__echo']);
      assert.ok(off.every((e) => why.test(String(e.disabledReason))));
    }
  });
});
