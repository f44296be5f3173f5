/** Agent.getToolsRegistry and the tools_changed event through the SDK, against the built runtime and a stub MCP server. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../src/protocol';
import { stdioStubServer } from '../runtime/mcp/mcp-stubs';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

describe('sdk: the tool registry', function () {
  const t = useStubAndAgent(this);

  it('lists built-in and MCP tools with their permission rules, and tools_changed reports the server becoming ready', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ ggufserver: { baseUrl: t.stub.origin }, mcpServers: { x: stdioStubServer() } }));
    const agent = await t.create(testAgentOptions(cwd));
    const changed = new Promise<Extract<AgentEvent, { type: 'tools_changed' }>>((resolve) => {
      const sub = agent.client.onEvent((e) => {
        if (e.type === 'tools_changed' && e.reason.startsWith('MCP server "x" is ready')) {
          sub.dispose();
          resolve(e);
        }
      });
    });
    // The server may already be up by the time the agent is created: then its event went by before the subscription.
    if ((await agent.getToolsRegistry()).servers[0]?.state !== 'ready') assert.ok((await changed).tools.includes('mcp__x__echo'));
    const registry = await agent.getToolsRegistry();
    assert.deepEqual(
      registry.tools.filter((e) => ['read_file', 'write_file', 'run_command', 'mcp__x__echo'].includes(e.name)).map((e) => [e.name, e.source, e.permissionRule]),
      [
        ['read_file', 'builtin', 'Read'],
        ['write_file', 'builtin', 'Write'],
        ['run_command', 'builtin', 'Bash'],
        ['mcp__x__echo', 'mcp', 'Mcp(x:echo)'],
      ],
    );
    assert.equal(registry.servers[0]?.state, 'ready');
  });
});
