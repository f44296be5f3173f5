/** The session's MCP tool set (McpTools) against the stdio stub server: tool calls while a server is down, config changes. */
import assert from 'node:assert/strict';
import os from 'node:os';
import { resultText } from '../../../src/runtime/mcp/call-result';
import { McpTools } from '../../../src/runtime/mcp/mcp-tools';
import { McpServersSchema } from '../../../src/runtime/mcp/server-config';
import type { ToolContext } from '../../../src/runtime/tools/types';
import { startMcpHttpStub } from '../../stubs/mcp-http-server';
import { stdioStubServer } from './mcp-stubs';

const shellEnv = { include: [], exclude: [] };

function context(): ToolContext {
  return { cwd: os.tmpdir(), files: {} as ToolContext['files'], signal: new AbortController().signal, toolCallId: 'call_1', onOutput: () => undefined, outputDir: os.tmpdir() };
}

describe('MCP tool set', () => {
  let tools: McpTools | undefined;
  const reasons: string[] = [];
  afterEach(async () => {
    await tools?.close();
    tools = undefined;
    reasons.length = 0;
  });

  function start(servers: Record<string, unknown>): McpTools {
    tools = new McpTools({ cwd: os.tmpdir(), env: process.env, changed: (r) => reasons.push(r) });
    tools.configure(McpServersSchema.parse(servers), shellEnv);
    return tools;
  }

  it('a tool of a server that just died answers the model that it is not running, until the server is back', async () => {
    const set = start({ x: stdioStubServer(['--crash-after-call']) });
    await set.firstConnections(15000);
    const echo = set.definitions().find((d) => d.name === 'mcp__x__echo');
    assert.ok(echo);
    const first = await echo.run({ text: 'a' }, context());
    assert.equal(first.isError, true);
    assert.match(first.output, /MCP tool echo \(server x\) failed: the server process exited \(code 7\)/);
    const second = await echo.run({ text: 'b' }, context());
    assert.equal(second.isError, true);
    assert.match(second.output, /MCP server "x" is not running \(the server process exited \(code 7\)\); its tools are unavailable until it restarts/);
    const entry = set.registry().find((e) => e.name === 'mcp__x__echo');
    assert.equal(entry?.enabled, false);
    assert.match(String(entry?.disabledReason), /server "x" is not running/);
    assert.ok(reasons.some((r) => /MCP server "x" failed: .*restarting in 1 s \(attempt 1 of 5\)\nlast stderr lines:\n[^]*segfault/.test(r)), reasons.join('\n'));
  });

  it('an HTTP server that went away: the call fails with the reason, and the server is reported and restarted', async () => {
    const stub = await startMcpHttpStub('json');
    const set = start({ remote: { url: stub.url } });
    await set.firstConnections(15000);
    const echo = set.definitions().find((d) => d.name === 'mcp__remote__echo');
    assert.ok(echo);
    assert.equal((await echo.run({ text: 'a' }, context())).output, 'echo: a');
    await stub.close();
    const gone = await echo.run({ text: 'b' }, context());
    assert.equal(gone.isError, true);
    assert.match(gone.output, /MCP tool echo \(server remote\) failed: cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: /);
    assert.deepEqual(set.statuses().map((s) => [s.state, s.restarts]), [['failed', 1]]);
    assert.ok(reasons.some((r) => /^MCP server "remote" failed: cannot reach .*; restarting in 1 s \(attempt 1 of 5\)$/.test(r)), reasons.join('\n'));
  });

  it('an env reference to a variable that is not set fails at once with what to fix, and is not restarted', async () => {
    const set = start({ x: stdioStubServer([], { env: { TOKEN: '${env:AGENTCLI_TEST_UNSET_VARIABLE}' } }) });
    await set.firstConnections(15000);
    assert.deepEqual(set.statuses().map((s) => [s.state, s.restarts]), [['failed', 0]]);
    assert.deepEqual(reasons, [
      'MCP server "x" failed: mcpServers.x.env.TOKEN refers to the environment variable AGENTCLI_TEST_UNSET_VARIABLE, which is not set: set it or write the value directly; not restarted until its config changes',
    ]);
  });

  it('a disabled server is listed and not started; removing a server takes its tools away', async () => {
    const set = start({ off: stdioStubServer([], { enabled: false }), x: stdioStubServer() });
    await set.firstConnections(15000);
    assert.deepEqual(
      set.statuses().map((s) => [s.name, s.state]),
      [
        ['off', 'disabled'],
        ['x', 'ready'],
      ],
    );
    assert.ok(set.definitions().every((d) => d.name.startsWith('mcp__x__')));
    set.configure(McpServersSchema.parse({ off: stdioStubServer([], { enabled: false }) }), shellEnv);
    assert.deepEqual(set.definitions(), []);
    assert.ok(reasons.includes('MCP server "x" was removed'));
  });

  it('a result: structured content without content as JSON, images named with their size, resource text shown', () => {
    assert.equal(resultText({ content: [], isError: false, structuredContent: { a: 1 } }), '{\n  "a": 1\n}');
    assert.equal(
      resultText({ content: [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }, { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } }], isError: false }),
      '[image image/png, 3 bytes, not shown]\n[resource file:///a.txt]\nhi',
    );
  });
});
