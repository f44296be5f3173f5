import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, startRuntime, testEnv } from '../../helpers/runtime-process';
import { startOpenAIStub } from '../../stubs/openai-stub';
import { makeTempDir } from '../../helpers/temp-dir';
import { stdioStubServer } from '../mcp/mcp-stubs';

describe('agentcli code cache', function () {
  this.timeout(30_000);

  it('keeps one compiled-code cache and one unpacked body: it writes the current build\'s and removes those of other builds', async () => {
    const cacheHome = makeTempDir('agentcli-cache-');
    const dir = path.join(cacheHome, 'agentcli');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'main-0123456789abcdef-v20.0.0.v8cache'), 'an older build');
    writeFileSync(path.join(dir, 'main-0123456789abcdef.js'), 'an older build');
    writeFileSync(path.join(dir, 'unrelated.txt'), 'not ours to remove');
    const env = testEnv({ XDG_CACHE_HOME: cacheHome });
    const first = await runCli(['--help'], makeWorkspace({}), env);
    assert.equal(first.code, 0, first.stderr);
    const files = readdirSync(dir).sort();
    assert.equal(files.length, 3, `one cache, one body and the unrelated file: ${files.join(', ')}`);
    assert.ok(files.includes('unrelated.txt'));
    const cache = files.find((f) => f.endsWith('.v8cache'));
    const body = files.find((f) => f.endsWith('.js'));
    assert.ok(cache !== undefined && cache !== 'main-0123456789abcdef-v20.0.0.v8cache', 'the stale cache is gone');
    assert.ok(body !== undefined && body !== 'main-0123456789abcdef.js', 'the stale body is gone');
    assert.ok(cache.includes(process.version), 'the cache is keyed by the Node version');
    const second = await runCli(['--help'], makeWorkspace({}), env);
    assert.equal(second.code, 0);
    assert.equal(second.stdout, first.stdout);
    assert.deepEqual(readdirSync(dir).sort(), files, 'a later start reuses the cache');
  });

  it('the MCP client is a body of its own: only a run that uses MCP unpacks it, and later starts keep it', async () => {
    const cacheHome = makeTempDir('agentcli-cache-');
    const dir = path.join(cacheHome, 'agentcli');
    const env = testEnv({ XDG_CACHE_HOME: cacheHome });
    const cwd = makeWorkspace({});
    mkdirSync(path.join(String(env.HOME), '.agentcli'), { recursive: true });
    writeFileSync(path.join(String(env.HOME), '.agentcli', 'config.json'), JSON.stringify({ mcpServers: { stub: stdioStubServer() } }));
    const bodiesIn = () => [...new Set(readdirSync(dir).map((f) => f.split('-')[0]))].sort();
    const help = await runCli(['--help'], cwd, env);
    assert.equal(help.code, 0, help.stderr);
    assert.deepEqual(bodiesIn(), ['main'], 'a run without MCP unpacks only the CLI body');
    const tested = await runCli(['mcp', 'test', 'stub'], cwd, env);
    assert.equal(tested.code, 0, tested.stderr);
    assert.match(tested.stdout, /Server "stub" is ready \(stdio\)/);
    const files = readdirSync(dir).sort();
    assert.deepEqual(bodiesIn(), ['main', 'mcp']);
    assert.equal(files.filter((f) => f.endsWith('.v8cache')).length, 2, `a code cache per body: ${files.join(', ')}`);
    assert.equal((await runCli(['--help'], cwd, env)).code, 0);
    assert.deepEqual(readdirSync(dir).sort(), files, 'a start that loads only the CLI body keeps the MCP body of the same build');
  });

  it('a -p run that runs no command unpacks only the CLI body; the shell parser, JSON-RPC and ACP come with what needs them', async () => {
    const stub = await startOpenAIStub();
    try {
      const cacheHome = makeTempDir('agentcli-cache-');
      const dir = path.join(cacheHome, 'agentcli');
      const env = testEnv({ XDG_CACHE_HOME: cacheHome });
      const bodiesIn = () => [...new Set(readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => f.split('-')[0]))].sort();
      const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin);
      stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] }, { text: 'read it' });
      const read = await runCli(['--bare', '-p', 'read hello.txt', '--yolo'], cwd, env);
      assert.equal(read.code, 0, read.stderr);
      assert.deepEqual(bodiesIn(), ['main'], 'reading a file and answering needs no other body');
      stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo parsed && echo twice' } }] }, { text: 'ran it' });
      const ran = await runCli(['--bare', '-p', 'run it', '--yolo'], cwd, env);
      assert.equal(ran.code, 0, ran.stderr);
      assert.deepEqual(bodiesIn(), ['main', 'shell'], 'the first command judged loads the shell parser');
      const rt = await startRuntime(cwd, { env });
      await rt.close();
      assert.deepEqual(bodiesIn(), ['jsonrpc', 'main', 'shell'], 'the JSON-RPC server brings vscode-jsonrpc');
      const acp = await runCli(['--acp'], cwd, env, '');
      assert.equal(acp.code, 0, acp.stderr);
      assert.deepEqual(bodiesIn(), ['acp', 'jsonrpc', 'main', 'shell'], 'the ACP mode brings its SDK');
    } finally {
      await stub.close();
    }
  });

  it('a cut-short unpacked body is not run: the embedded one is, and the file is written whole again', async () => {
    const cacheHome = makeTempDir('agentcli-cache-');
    const env = testEnv({ XDG_CACHE_HOME: cacheHome });
    const first = await runCli(['--help'], makeWorkspace({}), env);
    assert.equal(first.code, 0, first.stderr);
    const dir = path.join(cacheHome, 'agentcli');
    const body = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.js'))!);
    const whole = readFileSync(body, 'utf8');
    writeFileSync(body, whole.slice(0, Math.floor(whole.length / 2)));
    const second = await runCli(['--help'], makeWorkspace({}), env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, first.stdout);
    assert.equal(readFileSync(body, 'utf8'), whole, 'the body is whole again');
  });
});
