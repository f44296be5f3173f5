import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HOOK_EVENT_NAMES, type AgentEvent } from '../../../src/protocol';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

type HookEvent = Extract<AgentEvent, { type: 'hook' }>;

/** The JSON lines a hook appended to `file` in the workspace. */
function readLines(cwd: string, file: string): Array<Record<string, unknown>> {
  const p = path.join(cwd, file);
  if (!existsSync(p)) return [];
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function toolMessages(body: { messages: Array<{ role: string; content: string }> }): string[] {
  return body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('hooks: shell hooks over rpc', () => {
  const t = useStubbedRuntime();

  it('a before_tool hook that exits 2 blocks the tool and its stderr reaches the model', async () => {
    const hooks = { before_tool: [{ command: 'echo "touching files is not allowed here" >&2; exit 2', matcher: 'run_*' }] };
    const cwd = makeWorkspace({}, t.stub.origin, { hooks });
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch ran.txt' } }] }, { text: 'understood' });
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'] });
    await rt.request('prompt', { message: 'make a file' });
    assert.equal((await rt.waitForEvent('agent_end')).status, 'completed');
    assert.equal(existsSync(path.join(cwd, 'ran.txt')), false, 'the blocked command did not run');
    const told = toolMessages(t.stub.requests[1]!.body);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /blocked by a before_tool hook: touching files is not allowed here/);
    const hook = rt.events.find((e): e is HookEvent => e.type === 'hook');
    assert.ok(hook, 'a hook event');
    assert.equal(hook.name, 'before_tool');
    assert.equal(hook.blocked, true);
    assert.equal(hook.exitCode, 2);
    assert.equal(hook.source, 'config');
    const end = rt.events.find((e) => e.type === 'tool_end');
    assert.equal(end?.type === 'tool_end' && end.success, false);
  });

  it('the matcher limits a tool hook to the tools it names', async () => {
    const hooks = { before_tool: [{ command: 'exit 2', matcher: 'write_*' }] };
    const cwd = makeWorkspace({ 'a.txt': 'A' }, t.stub.origin, { hooks });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read a.txt' });
    await rt.waitForEvent('agent_end');
    assert.equal(rt.events.filter((e) => e.type === 'hook').length, 0);
    const told = toolMessages(t.stub.requests[1]!.body);
    assert.match(told[0]!, /A/);
  });

  it('a notification hook gets each of the 16 notifications as JSON on stdin', async () => {
    const hooks = Object.fromEntries(HOOK_EVENT_NAMES.map((name) => [name, [{ command: 'cat >> notifications.jsonl' }]]));
    const cwd = makeWorkspace({ 'a.txt': 'A\n' }, t.stub.origin, { hooks });
    t.stub.enqueue(
      { status: 429, headers: { 'retry-after-ms': '20' } },
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } },
          { name: 'read_file', arguments: { path: 'missing.txt' } },
          { name: 'run_command', arguments: { command: 'echo hook-test' } },
        ],
      },
      { text: 'all done' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'do three things' });
    const ask = await rt.waitForEvent('permission_request');
    await rt.request('permissionResponse', { requestId: ask.requestId, allowed: true, scope: 'once' });
    const ready = await rt.waitForEvent('change_batch_ready');
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    await rt.waitForEvent('change_batch_decided');
    await rt.close();
    const lines = readLines(cwd, 'notifications.jsonl');
    const seen = new Set(lines.map((l) => l.event));
    assert.deepEqual([...HOOK_EVENT_NAMES].filter((n) => !seen.has(n)), [], `missing notifications; got ${[...seen].join(', ')}`);
    const sessionId = rt.events[0]!.sessionId;
    for (const l of lines) {
      assert.equal(l.sessionId, sessionId);
      assert.equal(l.cwd, cwd);
    }
    const find = (event: string, pred: (l: Record<string, unknown>) => boolean = () => true) => lines.find((l) => l.event === event && pred(l));
    assert.equal(find('prompt_submitted')?.prompt, 'do three things');
    assert.deepEqual(find('before_tool', (l) => l.toolName === 'run_command')?.args, { command: 'echo hook-test' });
    assert.match(String(find('after_tool', (l) => l.toolName === 'run_command')?.output), /hook-test/);
    assert.match(String(find('tool_failed')?.error), /missing\.txt/);
    assert.equal(find('permission_asked')?.toolName, 'run_command');
    assert.equal(find('permission_decided')?.outcome, 'allowed');
    assert.equal(find('file_modified')?.path, 'b.txt');
    assert.deepEqual((find('changes_ready')?.files as Array<{ path: string }>).map((f) => f.path), ['b.txt']);
    assert.equal((find('changes_decided')?.results as Array<{ status: string }>)[0]?.status, 'applied');
    assert.equal(find('rate_limited')?.retryAfterMs, 20);
    assert.equal(find('error', (l) => l.code === 'tool_error') !== undefined, true);
    assert.equal(find('run_end')?.text, 'all done');
    assert.equal(typeof find('session_end')?.durationMs, 'number');
    // Every run of a hook was reported to the host.
    const reported = rt.events.filter((e): e is HookEvent => e.type === 'hook');
    assert.ok(reported.some((e) => e.name === 'before_tool'));
    assert.deepEqual(reported.filter((e) => e.exitCode !== 0 || e.blocked), []);
  });

  it('a hook that hangs is stopped at its timeout, reported, and does not block the tool', async () => {
    const hooks = { before_tool: [{ command: 'sleep 30', timeoutMs: 300 }] };
    const cwd = makeWorkspace({ 'a.txt': 'A' }, t.stub.origin, { hooks });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read a.txt' });
    await rt.waitForEvent('agent_end');
    const hook = rt.events.find((e): e is HookEvent => e.type === 'hook');
    assert.equal(hook?.exitCode, null);
    assert.equal(hook?.blocked, false);
    assert.match(String(hook?.error), /timed out after 300 ms/);
    const end = rt.events.find((e) => e.type === 'tool_end');
    assert.equal(end?.type === 'tool_end' && end.success, true);
  });

  it('addHook adds a hook for the session; a bad definition is refused with -32602', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read it' });
    const rt = await t.start(cwd);
    assert.deepEqual(await rt.request('addHook', { event: 'after_tool', command: 'cat > after.json', matcher: 'read_*' }), { event: 'after_tool', count: 1 });
    await assert.rejects(rt.raw('addHook', { event: 'before_everything', command: 'true' }), (e: { code: number }) => e.code === -32602);
    await assert.rejects(rt.raw('addHook', { event: 'after_tool', command: '  ' }), (e: { code: number }) => e.code === -32602);
    await rt.request('prompt', { message: 'read a.txt' });
    const hook = await rt.waitForEvent('hook');
    assert.equal(hook.source, 'session');
    assert.equal(hook.exitCode, 0);
    const got = readLines(cwd, 'after.json')[0];
    assert.equal(got?.event, 'after_tool');
    assert.equal(got?.toolName, 'read_file');
    assert.deepEqual(got?.args, { path: 'a.txt' });
  });

  it('project hooks are ignored with --no-project-config', async () => {
    const env = testEnv();
    mkdirSync(path.join(env.HOME!, '.agentcli'), { recursive: true });
    writeFileSync(path.join(env.HOME!, '.agentcli', 'config.json'), JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: t.stub.origin } }));
    const cwd = makeWorkspace({}, t.stub.origin, { hooks: { prompt_submitted: [{ command: 'touch hooked.txt' }], session_start: [{ command: 'touch hooked.txt' }] } });
    t.stub.enqueue({ text: 'hello' });
    const rt = await t.start(cwd, { env, args: ['--no-project-config'] });
    await rt.request('prompt', { message: 'hi' });
    await rt.waitForEvent('agent_end');
    await rt.close();
    assert.equal(t.stub.requests.length, 1, 'the user config reached the stub');
    assert.equal(rt.events.filter((e) => e.type === 'hook').length, 0);
    assert.equal(existsSync(path.join(cwd, 'hooked.txt')), false);
  });

  it('a hooks key naming an unknown notification is a config error naming the key', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { hooks: { before_tol: [{ command: 'true' }] } });
    const res = await runCli(['-p', 'hi'], cwd);
    assert.notEqual(res.code, 0);
    assert.match(res.stderr, /hooks\.before_tol/);
    assert.match(res.stderr, /before_tool/);
    assert.equal(t.stub.requests.length, 0);
  });
});
