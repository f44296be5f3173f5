import assert from 'node:assert/strict';
import path from 'node:path';
import { MAX_YOLO_MINUTES, RpcErrorCode } from '../../../src/protocol';
import { makeWorkspace, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const toolMessages = (body: { messages: Array<{ role: string; content: string }> }) =>
  body.messages.filter((m) => m.role === 'tool').map((m) => m.content);

/** Asserts the request fails with -32602 and a message matching every pattern. */
async function rejectsInvalid(rt: RuntimeUnderTest, method: string, params: unknown, ...patterns: RegExp[]): Promise<void> {
  await assert.rejects(rt.raw(method, params), (e: { code: number; message: string }) => {
    assert.equal(e.code, RpcErrorCode.InvalidParams, e.message);
    for (const p of patterns) assert.match(e.message, p);
    return true;
  });
}

describe('runtime rpc: configure rebuilds the permission settings', () => {
  const t = useStubbedRuntime();

  it('a deny rule given by configure applies to the next tool call', async () => {
    const cwd = makeWorkspace({ 'hello.txt': 'SECRET-CONTENT\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] }, { text: 'could not' });
    const rt = await t.start(cwd);
    await rt.request('configure', { config: { permissions: { deny: ['Read(*)'] } } });
    await rt.request('prompt', { message: 'read' });
    await rt.waitForEvent('agent_end');
    const [result] = toolMessages(t.stub.requests[1]!.body);
    assert.match(result!, /denied by rule Read\(\*\)/);
    assert.doesNotMatch(result!, /SECRET-CONTENT/);
  });

  it('keeps session grants and session rules, and applies additionalDirectories and the command timeout', async () => {
    const outside = makeWorkspace({ 'a.txt': 'AAA\n' });
    const extra = makeWorkspace({ 'b.txt': 'BBB\n' });
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    // First run: the user grants a folder and a command for the session.
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'a.txt') } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] },
      { text: 'ok' },
    );
    await rt.request('prompt', { message: 'first' });
    const dir = await rt.waitForEvent('directory_access_request');
    await rt.request('respondToDirectoryAccess', { requestId: dir.requestId, allowed: true, scope: 'session' });
    const perm = await rt.waitForEvent('permission_request');
    await rt.request('permissionResponse', { requestId: perm.requestId, allowed: true, scope: 'session' });
    await rt.waitForEvent('agent_end');
    const before = rt.events.length;

    await rt.request('configure', {
      config: { commandTimeoutMs: 300, permissions: { additionalDirectories: [extra], allow: ['Bash(sleep:*)'] } },
    });
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: path.join(outside, 'a.txt') } },
          { name: 'read_file', arguments: { path: path.join(extra, 'b.txt') } },
          { name: 'run_command', arguments: { command: 'echo hi' } },
          { name: 'run_command', arguments: { command: 'sleep 5' } },
        ],
      },
      { text: 'done' },
    );
    await rt.request('prompt', { message: 'second' });
    await rt.waitForEvent('agent_end', (e) => rt.events.indexOf(e) > before);
    const asked = rt.events.slice(before).filter((e) => e.type === 'permission_request' || e.type === 'directory_access_request');
    assert.deepEqual(asked, [], 'nothing asked again');
    const results = toolMessages(t.stub.requests.at(-1)!.body).slice(-4);
    assert.match(results[0]!, /AAA/);
    assert.match(results[1]!, /BBB/);
    assert.match(results[2]!, /hi/);
    assert.match(results[3]!, /timed out after 300 ms/);
  });

  it('refuses an invalid config with -32020 and keeps the previous settings', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    await assert.rejects(rt.request('configure', { config: { permissions: { deny: ['Read('] } } }), (e: { code: number; message: string }) => {
      assert.equal(e.code, RpcErrorCode.ConfigError);
      assert.match(e.message, /permissions\.deny/);
      return true;
    });
  });
});

describe('runtime rpc: setYolo and setModel check their values', () => {
  const t = useStubbedRuntime();

  it('setYolo refuses a timeout that is not positive or longer than 7 days, naming the maximum', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    for (const timeoutMinutes of [40_000, 1e300, MAX_YOLO_MINUTES + 1]) {
      await rejectsInvalid(rt, 'setYolo', { enabled: true, timeoutMinutes }, /"timeoutMinutes"/, /at most 10080 \(7 days\)/);
    }
    for (const timeoutMinutes of [0, -5]) {
      await rejectsInvalid(rt, 'setYolo', { enabled: true, timeoutMinutes }, /"timeoutMinutes": timeoutMinutes must be positive/);
    }
    assert.equal((await rt.request('getState', {})).yolo.active, false, 'a refused call changes nothing');
  });

  it('setYolo with the longest timeout stays on and expires 7 days later', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    const { yolo } = await rt.request('setYolo', { enabled: true, timeoutMinutes: MAX_YOLO_MINUTES });
    const expires = Date.parse(yolo.expiresAt!);
    assert.ok(Math.abs(expires - (Date.now() + MAX_YOLO_MINUTES * 60_000)) < 60_000, yolo.expiresAt);
    await new Promise((r) => setTimeout(r, 50));
    const state = await rt.request('getState', {});
    assert.equal(state.yolo.active, true);
    assert.equal(state.permissionMode, 'unrestricted');
  });

  it('setModel refuses an unknown provider prefix or a missing half, and accepts valid selectors', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    await rejectsInvalid(rt, 'setModel', { model: 'bogus/x' }, /"bogus" in "bogus\/x" is not a provider/, /serviceai, localrunner, ggufserver, vendorapi, cloudhub/);
    await rejectsInvalid(rt, 'setModel', { model: 'ggufserver/' }, /"model": the model after "\/" is missing/);
    await rejectsInvalid(rt, 'setModel', { model: 'ggufserver:' }, /the model after "ggufserver:" is missing/);
    await rejectsInvalid(rt, 'setModel', { model: '/x' }, /"model": the provider before "\/" is missing/);
    await rejectsInvalid(rt, 'setModel', { model: '   ' }, /"model": model must not be empty/);
    assert.equal((await rt.request('getState', {})).provider, 'ggufserver', 'a refused call changes nothing');
    assert.deepEqual(await rt.request('setModel', { model: 'vendorapi/org/model-7b' }), { provider: 'vendorapi', model: 'org/model-7b' });
    assert.deepEqual(await rt.request('setModel', { model: 'ggufserver/qwen' }), { provider: 'ggufserver', model: 'qwen' });
    assert.deepEqual(await rt.request('setModel', { model: 'llama3.2:latest' }), { provider: 'ggufserver', model: 'llama3.2:latest' });
  });
});
