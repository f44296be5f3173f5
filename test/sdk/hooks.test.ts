import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SdkEvent } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** Hooks, timed yolo and rate-limit notifications through the SDK against the real runtime. */
describe('sdk: addHook, hook and rate_limited events, setYolo timeouts', function () {
  const t = useStubAndAgent(this);

  it('addHook on the Agent adds a session hook; its run arrives as a typed hook event of the run', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read' });
    const agent = await t.create(testAgentOptions(cwd));
    assert.deepEqual(await agent.addHook({ event: 'before_tool', command: 'cat > before.json', matcher: 'read_file' }), { event: 'before_tool', count: 1 });
    const result = await agent.run('read a.txt');
    assert.equal(result.status, 'completed');
    const hook = result.events.find((e): e is Extract<SdkEvent, { type: 'hook' }> => e.type === 'hook');
    assert.ok(hook, `a hook event among ${result.events.map((e) => e.type).join(', ')}`);
    assert.equal(hook.name, 'before_tool');
    assert.equal(hook.exitCode, 0);
    assert.equal(hook.blocked, false);
    const input = JSON.parse(readFileSync(path.join(cwd, 'before.json'), 'utf8')) as { event: string; toolName: string; args: unknown };
    assert.deepEqual([input.event, input.toolName, input.args], ['before_tool', 'read_file', { path: 'a.txt' }]);
  });

  it('a throttled request shows as a rate_limited event of the run', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 429, headers: { 'retry-after-ms': '10' } }, { text: 'ok' });
    const agent = await t.create(testAgentOptions(cwd));
    const result = await agent.run('hi');
    const limited = result.events.find((e): e is Extract<SdkEvent, { type: 'rate_limited' }> => e.type === 'rate_limited');
    assert.deepEqual(limited && [limited.provider, limited.retryAfterMs, limited.attempt, limited.willRetry], ['ggufserver', 10, 1, true]);
  });

  it('setYolo and setYoloCompat refuse a timeout that is not positive', async () => {
    const agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { permissionMode: 'interactive' }));
    await assert.rejects(agent.setYolo({ enabled: true, timeoutMinutes: 0 }), /positive/);
    await assert.rejects(agent.setYoloCompat({ enabled: true, timeoutMinutes: -1 }), /positive/);
    const on = await agent.setYoloCompat({ enabled: true, timeoutMinutes: 5 });
    assert.equal(on.yolo.active, true);
    assert.ok(on.yolo.expiresAt);
  });
});
