import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/protocol';
import { makeWorkspace, runCli, useStubbedRuntime } from '../../helpers/runtime-process';

type YoloChanged = Extract<AgentEvent, { type: 'yolo_changed' }>;

describe('timed yolo (setYolo)', () => {
  const t = useStubbedRuntime();

  it('turns itself off when its timeout runs out, says so, and getState shows it off', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    // 0.005 minutes: 300 ms.
    const set = await rt.request('setYolo', { enabled: true, timeoutMinutes: 0.005 });
    assert.equal(set.yolo.active, true);
    assert.ok(set.yolo.expiresAt, 'expiresAt is given');
    const on = await rt.waitForEvent('yolo_changed', (e) => e.reason === 'requested');
    assert.equal(on.active, true);
    assert.equal(on.expiresAt, set.yolo.expiresAt);
    const during = await rt.request('getState', {});
    assert.equal(during.permissionMode, 'unrestricted');
    assert.equal(during.yolo.expiresAt, set.yolo.expiresAt);
    const off = await rt.waitForEvent('yolo_changed', (e) => e.reason === 'expired');
    assert.equal(off.active, false);
    assert.equal(off.expiresAt, undefined);
    const after = await rt.request('getState', {});
    assert.deepEqual(after.yolo, { active: false });
    assert.equal(after.permissionMode, 'interactive');
  });

  it('turning yolo off before the timeout cancels the expiry', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    await rt.request('setYolo', { enabled: true, timeoutMinutes: 0.005 });
    assert.deepEqual((await rt.request('setYolo', { enabled: false })).yolo, { active: false });
    await new Promise((r) => setTimeout(r, 600));
    const changes = rt.events.filter((e): e is YoloChanged => e.type === 'yolo_changed').map((e) => `${e.reason}:${e.active}`);
    assert.deepEqual(changes, ['requested:true', 'requested:false']);
  });

  it('a timeout that is not positive is invalid params (-32602) and changes nothing', async () => {
    const rt = await t.start(makeWorkspace({}, t.stub.origin));
    for (const timeoutMinutes of [0, -5]) {
      await assert.rejects(rt.raw('setYolo', { enabled: true, timeoutMinutes }), (e: { code: number; message: string }) => e.code === -32602 && /positive/.test(e.message));
    }
    assert.deepEqual((await rt.request('getState', {})).yolo, { active: false });
    assert.equal(rt.events.filter((e) => e.type === 'yolo_changed').length, 0);
  });
});

describe('rate_limited event', () => {
  const t = useStubbedRuntime();

  it('is emitted with retryAfterMs, attempt and provider when the provider answers 429, and the run goes on', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 429, headers: { 'retry-after-ms': '40' } }, { status: 429, headers: { 'retry-after': '0' } }, { text: 'finally' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'hi' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'completed');
    assert.equal(end.text, 'finally');
    const limited = rt.events.filter((e): e is Extract<AgentEvent, { type: 'rate_limited' }> => e.type === 'rate_limited');
    assert.deepEqual(
      limited.map(({ runId: r, provider, retryAfterMs, attempt, willRetry }) => ({ r, provider, retryAfterMs, attempt, willRetry })),
      [
        { r: runId, provider: 'ggufserver', retryAfterMs: 40, attempt: 1, willRetry: true },
        { r: runId, provider: 'ggufserver', retryAfterMs: 0, attempt: 2, willRetry: true },
      ],
    );
    assert.equal(t.stub.requests.length, 3);
  });

  it('agentcli -p says on stderr that the provider is rate limiting and when it retries', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 429, headers: { 'retry-after-ms': '10' } }, { text: 'answered' });
    const res = await runCli(['-p', 'hi'], cwd);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /answered/);
    assert.match(res.stderr, /ggufserver is rate limiting requests \(HTTP 429\): retrying in 10 ms \(attempt 2\)/);
  });

  it('says willRetry: false when the server asks for a longer wait than the runtime will take', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'hi' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'error');
    const limited = await rt.waitForEvent('rate_limited');
    assert.equal(limited.willRetry, false);
    assert.equal(limited.retryAfterMs, 3_600_000);
    assert.equal(limited.attempt, 1);
  });
});
