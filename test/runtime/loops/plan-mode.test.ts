import assert from 'node:assert/strict';
import { RpcErrorCode } from '../../../src/protocol/errors';
import { makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

const WRITE_TOOLS = ['write_file', 'edit_file', 'delete_file', 'run_command'];
const toolNames = (body: { tools?: Array<{ function: { name: string } }> }) => (body.tools ?? []).map((x) => x.function.name);
const submit = (...titles: string[]) => ({ toolCalls: [{ name: 'submit_plan', arguments: { steps: titles.map((title) => ({ title })) } }] });

describe('plan mode (real runtime, stub model)', () => {
  const t = useStubbedRuntime();
  const chats = () => t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('offers only read-only tools and submit_plan until the plan is accepted; revise sends the note; accept executes', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      submit('Write b.txt'),
      submit('Write b.txt', 'Add a test'),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'beta\n' } }] },
      { text: 'b.txt written' },
      { text: 'test added' },
      { text: 'Done: b.txt and a test' },
    );
    const rt = await t.start(cwd);
    assert.deepEqual(await rt.request('setPlanMode', { enabled: true }), { planMode: true });
    const first = await rt.request('prompt', { message: 'add b.txt' });
    const proposed = await rt.waitForEvent('plan_proposed', (e) => e.runId === first.runId);
    const end1 = await rt.waitForEvent('agent_end', (e) => e.runId === first.runId);
    assert.deepEqual([end1.status, end1.stoppedReason], ['stopped', 'plan_proposed']);
    assert.deepEqual(proposed.steps, [{ title: 'Write b.txt', status: 'pending' }]);
    assert.equal(proposed.text, '1. Write b.txt');
    for (const r of chats()) {
      const names = toolNames(r.body);
      assert.ok(names.includes('read_file') && names.includes('submit_plan'), names.join(','));
      assert.deepEqual(names.filter((n) => WRITE_TOOLS.includes(n)), [], 'no write tool while planning');
    }

    // A wrong plan id is refused; revise sends the note and stays in plan mode.
    await assert.rejects(rt.request('respondToPlan', { planId: 'plan_nope', decision: 'accept' }), (e: { code: number }) => e.code === RpcErrorCode.UnknownId);
    const revised = await rt.request('respondToPlan', { planId: proposed.planId, decision: 'revise', note: 'also add a test' });
    const second = await rt.waitForEvent('plan_proposed', (e) => e.runId === revised.runId);
    await rt.waitForEvent('agent_end', (e) => e.runId === revised.runId);
    const reviseRequest = chats()[2]!.body;
    assert.equal(reviseRequest.messages.at(-1).content, 'also add a test');
    assert.deepEqual(toolNames(reviseRequest).filter((n) => WRITE_TOOLS.includes(n)), []);
    const waiting = await rt.request('getState', {});
    assert.equal(waiting.planMode, true);
    assert.deepEqual(waiting.proposedPlan, { planId: second.planId, runId: revised.runId, steps: second.steps });
    // The first plan was answered: it cannot be accepted any more.
    await assert.rejects(rt.request('respondToPlan', { planId: proposed.planId, decision: 'accept' }));

    const accepted = await rt.request('respondToPlan', { planId: second.planId, decision: 'accept' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === accepted.runId);
    assert.equal(end.status, 'completed', JSON.stringify(end));
    assert.equal(end.text, 'Done: b.txt and a test');
    const after = await rt.request('getState', {});
    assert.equal(after.planMode, false);
    assert.equal(after.proposedPlan, undefined);
    const execution = chats()[3]!.body;
    assert.ok(toolNames(execution).includes('write_file'), 'the accepted plan runs with every tool');
    assert.ok(!toolNames(execution).includes('submit_plan'));
    const updates = rt.events.flatMap((e) => (e.type === 'plan_update' && e.runId === accepted.runId ? [e] : []));
    assert.equal(updates[0]!.planId, second.planId);
    assert.deepEqual(updates.at(-1)!.steps.map((s) => s.status), ['done', 'done']);
    const ready = rt.events.find((e) => e.type === 'change_batch_ready');
    assert.deepEqual(ready?.type === 'change_batch_ready' && ready.batch.changes.map((c) => c.path), ['b.txt']);
  });

  it('a write the model calls anyway in plan mode is refused, and revise needs a note', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'x' } }] }, { text: 'ok, planning instead' });
    const rt = await t.start(cwd);
    await rt.request('setPlanMode', { enabled: true });
    const { runId } = await rt.request('prompt', { message: 'write x' });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    const toolEnd = rt.events.find((e) => e.type === 'tool_end');
    assert.ok(toolEnd?.type === 'tool_end' && !toolEnd.success);
    assert.match(toolEnd.error ?? '', /unknown tool|plan mode/);
    await assert.rejects(rt.request('respondToPlan', { planId: 'plan_x', decision: 'revise' }), /note/);
  });

  it('an accepted plan runs its steps with the session strategy (parallel: the calls of a step overlap)', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'parallel' });
    const cmd = (command: string, id: string) => ({ name: 'run_command', arguments: { command }, id });
    t.stub.enqueue(submit('Two naps'), { toolCalls: [cmd('sleep 0.5; echo a', 'n1'), cmd('sleep 0.5; echo b', 'n2')] }, { text: 'napped' }, { text: 'Done' });
    const rt = await t.start(cwd, { args: ['--yolo'] });
    await rt.request('setPlanMode', { enabled: true });
    const first = await rt.request('prompt', { message: 'nap' });
    const proposed = await rt.waitForEvent('plan_proposed', (e) => e.runId === first.runId);
    await rt.waitForEvent('agent_end', (e) => e.runId === first.runId);
    const { runId } = await rt.request('respondToPlan', { planId: proposed.planId, decision: 'accept' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed');
    const tools = rt.events.flatMap((e) => ((e.type === 'tool_start' || e.type === 'tool_end') && e.runId === runId ? [e.type] : []));
    assert.deepEqual(tools, ['tool_start', 'tool_start', 'tool_end', 'tool_end']);
  });
});
