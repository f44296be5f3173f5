/**
 * `agentcli mcp add | list | test | remove` as a real process, and project servers only when the project config is
 * read (`--no-project-config` for an untrusted folder reads none of them).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';
import { STDIO_STUB, stdioStubServer } from './mcp-stubs';

const TSX_CJS = require.resolve('tsx/cjs');

describe('agentcli mcp', () => {
  it('add writes the user config, list shows it, test starts it and lists its tools, remove takes it out', async () => {
    const cwd = makeWorkspace({});
    const env = testEnv();
    const userFile = path.join(String(env.HOME), '.agentcli', 'config.json');

    const added = await runCli(['mcp', 'add', 'x', '--env', 'STUB_SETTING=1', '--', process.execPath, '--require', TSX_CJS, STDIO_STUB], cwd, env);
    assert.equal(added.code, 0, added.stderr);
    assert.deepEqual(JSON.parse(readFileSync(userFile, 'utf8')).mcpServers.x, {
      command: process.execPath,
      args: ['--require', TSX_CJS, STDIO_STUB],
      env: { STUB_SETTING: '1' },
    });
    const again = await runCli(['mcp', 'add', 'x', 'other'], cwd, env);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already configured there; remove it first: agentcli mcp remove x/);

    const listed = await runCli(['mcp', 'list'], cwd, env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^x\\s+stdio\\s+.*mcp-stdio-server\\.ts\\s+\\[${userFile.replace(/[.]/g, '\\.')}\\]`, 'm'));

    const tested = await runCli(['mcp', 'test', 'x'], cwd, env);
    assert.equal(tested.code, 0, tested.stderr);
    assert.match(tested.stdout, /Server "x" is ready \(stdio\) with 7 tool\(s\)/);
    assert.match(tested.stdout, /mcp__x__echo {2}Echo the text back/);
    assert.match(tested.stdout, /mcp__x__bad_schema[^\n]*\n {4}not offered: inputSchema is nested more than 32 levels deep at inputSchema\.properties\.deep/);

    const removed = await runCli(['mcp', 'remove', 'x'], cwd, env);
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(JSON.parse(readFileSync(userFile, 'utf8')).mcpServers, {});
    assert.match((await runCli(['mcp', 'list'], cwd, env)).stdout, /No MCP servers configured/);
  });

  it('test reports a server that fails to start with its stderr tail (exit 1)', async () => {
    const cwd = makeWorkspace({});
    const env = testEnv();
    assert.equal((await runCli(['mcp', 'add', 'bad', '--project', process.execPath, '--require', TSX_CJS, STDIO_STUB, '--crash'], cwd, env)).code, 0);
    assert.ok(readFileSync(path.join(cwd, '.agentcli', 'config.json'), 'utf8').includes('"bad"'));
    const tested = await runCli(['mcp', 'test', 'bad'], cwd, env);
    assert.equal(tested.code, 1);
    assert.match(tested.stderr, /server "bad" failed: the server process exited \(code 3\)\nlast stderr lines:\nstub: starting\nstub: fatal: the database file is missing/);
    const notThere = await runCli(['mcp', 'remove', 'bad'], cwd, env);
    assert.equal(notThere.code, 1);
    assert.match(notThere.stderr, /no MCP server "bad" in .*; it is in .*: use agentcli mcp remove bad --project/);
  });

  it('bad usage names the problem and the usage (exit 2)', async () => {
    const cwd = makeWorkspace({});
    const cases: Array<[string[], RegExp]> = [
      [['mcp', 'add', 'a__b', 'srv'], /"a__b" is not a valid server name/],
      [['mcp', 'add', 'x'], /add needs the command that starts the server/],
      [['mcp', 'add', 'x', '--url', 'http://127.0.0.1:1/mcp', 'srv'], /either a command or a --url, not both/],
      [['mcp', 'add', 'x', '--url', 'ftp://host/'], /mcpServers\.x\.url.*must be an http:\/\/ or https:\/\/ URL/],
      [['mcp', 'frobnicate'], /unknown command "frobnicate"/],
      [['mcp'], /missing command/],
    ];
    for (const [args, expected] of cases) {
      const r = await runCli(args, cwd);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, expected, args.join(' '));
    }
  });
});

describe('agentcli mcp --help', () => {
  for (const args of [['mcp', '--help'], ['mcp', 'add', '--help'], ['mcp', 'test', '-h']]) {
    it(`${args.join(' ')} prints the usage on stdout and exits 0`, async () => {
      const r = await runCli(args, makeWorkspace({}));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Usage: agentcli mcp /);
      assert.equal(r.stderr, '');
    });
  }
});

describe('runtime: MCP servers in one-shot runs, and project servers in untrusted folders', () => {
  const t = useStubbedRuntime();

  it('a one-shot run (-p) waits for servers on their first start, so their tools are offered at once', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { x: stdioStubServer() }, permissions: { allow: ['Mcp(x:echo)'] } });
    t.stub.enqueue({ toolCalls: [{ name: 'mcp__x__echo', arguments: { text: 'one shot' } }] }, { text: 'finished' });
    const r = await runCli(['-p', 'echo it'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /finished/);
    const tools = (t.stub.requests[0]?.body as { tools?: { function: { name: string } }[] }).tools ?? [];
    assert.ok(tools.some((x) => x.function.name === 'mcp__x__echo'), 'the first request did not offer the MCP tool');
    const results = (t.stub.requests[1]?.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === 'tool');
    assert.deepEqual(results.map((m) => m.content), ['echo: one shot']);
  });

  it('a one-shot run with a server that fails to start says so on stderr and still runs', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { mcpServers: { bad: stdioStubServer(['--crash']) } });
    t.stub.enqueue({ text: 'answered without it' });
    const r = await runCli(['-p', 'hello'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /answered without it/);
    assert.match(r.stderr, /MCP server "bad" failed: the server process exited \(code 3\)[^]*fatal: the database file is missing/);
  });

  it('--no-project-config starts none of the project file servers; user servers still start', async () => {
    const cwd = makeWorkspace({}, undefined);
    mkdirSync(path.join(cwd, '.agentcli'), { recursive: true });
    writeFileSync(path.join(cwd, '.agentcli', 'config.json'), JSON.stringify({ mcpServers: { proj: stdioStubServer() } }));
    const env = testEnv();
    mkdirSync(path.join(String(env.HOME), '.agentcli'), { recursive: true });
    writeFileSync(
      path.join(String(env.HOME), '.agentcli', 'config.json'),
      JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: t.stub.origin }, mcpServers: { mine: stdioStubServer() } }),
    );
    const rt = await t.start(cwd, { env, args: ['--no-project-config'] });
    await rt.waitForEvent('tools_changed', (e) => e.reason.startsWith('MCP server "mine" is ready'));
    const registry = await rt.request('getToolsRegistry', {});
    assert.deepEqual(registry.servers.map((s) => s.name), ['mine']);
    assert.ok(!registry.tools.some((e) => e.server === 'proj'));
  });
});
