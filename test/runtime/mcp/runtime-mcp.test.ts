/**
 * MCP servers in a real runtime process (dist/agentcli.js over stdio, against the stub model): their tools join the
 * tool set as mcp__<server>__<tool>, ask permission by default, obey Mcp(...) rules, reach the model with their
 * results, follow list_changed (tools_changed, registry), and a failing server is reported while other tools work.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { startMcpHttpStub } from '../../stubs/mcp-http-server';
import { stdioStubServer } from './mcp-stubs';

type Requests = { body: { messages: { role: string; content: string }[]; tools?: { function: { name: string; parameters: unknown } }[] } }[];

/** The tool results the model got in request `index`. */
function toolResults(requests: Requests, index: number): string[] {
  const req = requests[index];
  assert.ok(req, `no request ${index}`);
  return req.body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

function toolNames(requests: Requests, index: number): string[] {
  return (requests[index]?.body.tools ?? []).map((t) => t.function.name);
}

/** The stub's echo schema as the library's server writes it: the model gets it unchanged. */
const ECHO_SCHEMA = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** Waits until the server named `server` is ready (a tools_changed saying so). */
function ready(rt: RuntimeUnderTest, server: string, timeoutMs = 15000) {
  return rt.waitForEvent('tools_changed', (e) => e.reason.startsWith(`MCP server "${server}" is ready`), timeoutMs);
}

describe('runtime: MCP server tools', () => {
  const t = useStubbedRuntime();

  it('offers the tools with their schemas, asks before a call by default, and the result reaches the model', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { x: stdioStubServer() } });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__echo', arguments: { text: 'hello' } }] }, { text: 'done' });
    const rt = await t.start(cwd);
    const changed = await ready(rt, 'x');
    assert.ok(changed.tools.includes('mcp__x__echo') && changed.tools.includes('read_file'));
    assert.ok(changed.tools.includes('mcp__x__weird_name'), 'a name with a dot is sanitized');
    assert.ok(!changed.tools.includes('mcp__x__bad_schema'), 'a tool with an unusable schema is not offered');

    const registry = await rt.request('getToolsRegistry', {});
    const echo = registry.tools.find((e) => e.name === 'mcp__x__echo');
    assert.deepEqual(echo, {
      name: 'mcp__x__echo',
      source: 'mcp',
      server: 'x',
      description: 'Echo the text back',
      inputSchema: ECHO_SCHEMA,
      permissionRule: 'Mcp(x:echo)',
      readOnly: false,
      enabled: true,
    });
    const bad = registry.tools.find((e) => e.name === 'mcp__x__bad_schema');
    assert.equal(bad?.enabled, false);
    assert.match(String(bad?.disabledReason), /nested more than 32 levels deep/);
    assert.deepEqual(registry.tools.find((e) => e.name === 'run_command')?.permissionRule, 'Bash');
    assert.deepEqual(
      registry.servers.map((s) => [s.name, s.state, s.transport, s.toolCount]),
      [['x', 'ready', 'stdio', 7]],
    );

    await rt.request('prompt', { message: 'echo hello' });
    const asked = await rt.waitForEvent('permission_request');
    assert.equal(asked.tool, 'mcp__x__echo');
    assert.deepEqual(asked.suggestedRules, ['Mcp(x:echo)']);
    await rt.request('permissionResponse', { requestId: asked.requestId, allowed: true });
    await rt.waitForEvent('agent_end');
    const first = t.stub.requests[0]?.body as Requests[number]['body'];
    const spec = first.tools?.find((x) => x.function.name === 'mcp__x__echo');
    assert.deepEqual(spec?.function.parameters, ECHO_SCHEMA);
    assert.deepEqual(toolResults(t.stub.requests as Requests, 1), ['echo: hello']);
  });

  it('Mcp(x:*) allows every tool of the server without asking; a deny rule Mcp(x:fail) refuses that one', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, {
      mcpServers: { x: stdioStubServer() },
      permissions: { allow: ['Mcp(x:*)'], deny: ['Mcp(x:fail)'] },
    });
    t.stub.enqueue(
      { toolCalls: [{ name: 'mcp__x__echo', arguments: { text: 'a' } }, { name: 'mcp__x__fail', arguments: {} }] },
      { text: 'done' },
    );
    const rt = await t.start(cwd);
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end');
    assert.ok(!rt.events.some((e) => e.type === 'permission_request'), 'a call was asked about');
    const [echo, fail] = toolResults(t.stub.requests as Requests, 1);
    assert.equal(echo, 'echo: a');
    assert.match(String(fail), /denied by rule Mcp\(x:fail\)/);
  });

  it('tools/list_changed emits tools_changed; the new tool is in the registry and offered to the next request', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { x: stdioStubServer() }, permissions: { allow: ['Mcp(x:*)'] } });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__add_tool', arguments: {} }] }, { text: 'added' });
    const rt = await t.start(cwd);
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'add a tool' });
    const changed = await rt.waitForEvent('tools_changed', (e) => /changed its tool list/.test(e.reason));
    assert.ok(changed.tools.includes('mcp__x__later'));
    await rt.waitForEvent('agent_end');
    const registry = await rt.request('getToolsRegistry', {});
    assert.ok(registry.tools.some((e) => e.name === 'mcp__x__later' && e.enabled));
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__later', arguments: {} }] }, { text: 'ran' });
    await rt.request('prompt', { message: 'use it' });
    await rt.waitForEvent('agent_end', (e) => e.text === 'ran');
    assert.ok(toolNames(t.stub.requests as Requests, 2).includes('mcp__x__later'));
    assert.deepEqual(toolResults(t.stub.requests as Requests, 3).slice(-1), ['later tool ran']);
  });

  it('a server that fails to start is reported with its stderr tail; other servers and the built-in tools still work', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'file text\n' }, t.stub.origin, {
      mcpServers: { bad: stdioStubServer(['--crash']), x: stdioStubServer() },
      permissions: { allow: ['Mcp(x:*)'] },
    });
    const rt = await t.start(cwd);
    const failed = await rt.waitForEvent('tools_changed', (e) => e.reason.startsWith('MCP server "bad" failed'));
    assert.match(failed.reason, /exited \(code 3\); restarting in 1 s/);
    assert.match(failed.reason, /fatal: the database file is missing/);
    await ready(rt, 'x');
    const registry = await rt.request('getToolsRegistry', {});
    const bad = registry.servers.find((s) => s.name === 'bad');
    assert.ok(bad && bad.state !== 'ready');
    assert.match(String(bad.stderrTail), /fatal: the database file is missing/);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'mcp__x__echo', arguments: { text: 'still here' } }] },
      { text: 'done' },
    );
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end');
    const [read, echo] = toolResults(t.stub.requests as Requests, 1);
    assert.match(String(read), /file text/);
    assert.equal(echo, 'echo: still here');
  });

  it('a server that dies during a call: the model gets the error, the server is reported and restarted', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { x: stdioStubServer(['--crash-after-call']) }, permissions: { allow: ['Mcp(x:*)'] } });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__echo', arguments: { text: 'boom' } }] }, { text: 'noted' });
    const rt = await t.start(cwd);
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end');
    assert.match(toolResults(t.stub.requests as Requests, 1)[0]!, /MCP tool echo \(server x\) failed: .*exited \(code 7\)/);
    const failed = await rt.waitForEvent('tools_changed', (e) => e.reason.startsWith('MCP server "x" failed'));
    assert.match(failed.reason, /segfault while calling a tool/);
    await rt.waitForEvent('tools_changed', (e) => e.reason.startsWith('MCP server "x" is ready') && rt.events.indexOf(e) > rt.events.indexOf(failed));
    const registry = await rt.request('getToolsRegistry', {});
    assert.deepEqual(registry.servers.map((s) => [s.state, s.restarts]), [['ready', 1]]);
  });

  it('a call past mcpServers.<name>.timeoutMs ends with a timeout error the model sees', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { x: stdioStubServer([], { timeoutMs: 2000 }) }, permissions: { allow: ['Mcp(x:*)'] } });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__slow', arguments: { ms: 30000 } }] }, { text: 'gave up' });
    const rt = await t.start(cwd);
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end', undefined, 20000);
    assert.match(toolResults(t.stub.requests as Requests, 1)[0]!, /did not answer within 2000 ms; the call was cancelled \(mcpServers\.x\.timeoutMs/);
  });

  it('a long result is cut for the model and saved whole where read_file can reach it', async () => {
    // A realistic window: the cut result would pass 80% of the stub provider's default 4,096 tokens and compact.
    const cwd = makeWorkspace({}, t.stub.origin, {
      ggufserver: { baseUrl: t.stub.origin, contextSize: 32768 },
      mcpServers: { x: stdioStubServer() },
      permissions: { allow: ['Mcp(x:*)'] },
    });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__big', arguments: { chars: 100000 } }] }, { text: 'long' });
    const rt = await t.start(cwd);
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end');
    const result = toolResults(t.stub.requests as Requests, 1)[0]!;
    assert.ok(result.length < 20000, `the model got ${result.length} characters`);
    assert.ok(result.startsWith('BEGIN-') && result.endsWith('-END'));
    const saved = /full output \(100000 chars\) saved to (\S+); read it with read_file/.exec(result)?.[1];
    assert.ok(saved && existsSync(saved), `the full output was not saved: ${result.slice(8000, 8400)}`);
    assert.equal(readFileSync(saved, 'utf8').length, 100000);
  });

  it('a local server gets no provider key unless its env lists one', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, {
      mcpServers: { x: stdioStubServer([], { env: { STUB_SETTING: 'visible' } }) },
      permissions: { allow: ['Mcp(x:*)'] },
    });
    t.stub.enqueue(
      { toolCalls: [{ name: 'mcp__x__env', arguments: { name: 'SERVICE_API_KEY' } }, { name: 'mcp__x__env', arguments: { name: 'STUB_SETTING' } }] },
      { text: 'done' },
    );
    const rt = await t.start(cwd, { env: testEnv({ SERVICE_API_KEY: 'sk-runtime-secret-123456' }) });
    await ready(rt, 'x');
    await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('agent_end');
    assert.deepEqual(toolResults(t.stub.requests as Requests, 1), ['SERVICE_API_KEY=(unset)', 'STUB_SETTING=visible']);
  });

  it('a Streamable HTTP server works the same way', async () => {
    const http = await startMcpHttpStub('sse');
    try {
      const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { web: { url: http.url } }, permissions: { allow: ['Mcp(web:echo)'] } });
      t.stub.enqueue({ toolCalls: [{ name: 'mcp__web__echo', arguments: { text: 'over http' } }] }, { text: 'done' });
      const rt = await t.start(cwd);
      await ready(rt, 'web');
      await rt.request('prompt', { message: 'go' });
      await rt.waitForEvent('agent_end');
      assert.deepEqual(toolResults(t.stub.requests as Requests, 1), ['echo: over http']);
      assert.equal((await rt.request('getToolsRegistry', {})).servers[0]?.transport, 'streamable-http');
    } finally {
      await http.close();
    }
  });

  it('editor tools registered emit tools_changed and show in the registry as source editor', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    await rt.request('setEditorMcpTools', { tools: [{ name: 'diagnostics', description: 'Problems', inputSchema: { type: 'object', properties: {} } }] });
    const changed = await rt.waitForEvent('tools_changed');
    assert.ok(changed.tools.includes('editor_diagnostics'));
    const registry = await rt.request('getToolsRegistry', {});
    const entry = registry.tools.find((e) => e.name === 'editor_diagnostics');
    assert.equal(entry?.source, 'editor');
    assert.deepEqual(registry.servers, []);
  });
});
