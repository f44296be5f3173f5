import assert from 'node:assert/strict';
import { once } from 'node:events';
import { makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

describe('runtime rpc server: shutdown', () => {
  const t = useStubbedRuntime();

  it('delivers session_end (duration, sessionId) when the host closes stdin, then exits 0', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    const init = rt.events.length;
    const exited = once(rt.proc, 'exit');
    rt.proc.stdin!.end();
    const end = await rt.waitForEvent('session_end', undefined, 5000);
    assert.equal(typeof end.duration, 'number');
    assert.ok(end.duration >= 0);
    assert.match(end.sessionId, /\S/);
    const [code] = await exited;
    assert.equal(code, 0, rt.stderr());
    assert.equal(rt.events.slice(init).filter((e) => e.type === 'session_end').length, 1, 'exactly one session_end');
  });

  it('ends an active run first: agent_end (aborted) arrives before session_end', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'thinking', hang: true });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'go' });
    await rt.waitForEvent('message_update', (e) => e.runId === runId);
    rt.proc.stdin!.end();
    const end = await rt.waitForEvent('session_end', undefined, 5000);
    const agentEnd = rt.events.findIndex((e) => e.type === 'agent_end' && e.runId === runId);
    assert.ok(agentEnd >= 0, `agent_end missing: ${rt.events.map((e) => e.type).join(', ')}`);
    assert.equal(rt.events[agentEnd]!.type === 'agent_end' && rt.events[agentEnd]!.status, 'aborted');
    assert.ok(agentEnd < rt.events.indexOf(end), 'agent_end precedes session_end');
    assert.equal(end.sessionId, rt.events[agentEnd]!.sessionId);
  });
});
