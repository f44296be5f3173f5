import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/protocol';
import { eventTrace, makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

type PlanUpdate = Extract<AgentEvent, { type: 'plan_update' }>;

const plan = (...titles: string[]) => ({ toolCalls: [{ name: 'submit_plan', arguments: { steps: titles.map((title) => ({ title })) } }] });

describe('loop strategy plan-and-execute (real runtime, stub model)', () => {
  const t = useStubbedRuntime();
  const chats = () => t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const updates = (events: AgentEvent[]) => events.filter((e): e is PlanUpdate => e.type === 'plan_update');

  it('asks for a plan with submit_plan required, runs each step as a sub-loop, re-plans a failed step, then summarises', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin, { loopType: 'plan-and-execute' });
    t.stub.enqueue(
      plan('Read a.txt', 'Write b.txt'),
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'a.txt holds alpha' },
      { text: 'STEP FAILED: the name b.txt is reserved' },
      plan('Write c.txt instead'),
      { toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'alpha\n' } }] },
      { text: 'wrote c.txt' },
      { text: 'Summary: read a.txt, b.txt failed, wrote c.txt instead' },
    );
    const rt = await t.start(cwd, { args: ['--yolo'] });
    const { runId } = await rt.request('prompt', { message: 'copy a.txt' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed', JSON.stringify(end));
    assert.equal(end.text, 'Summary: read a.txt, b.txt failed, wrote c.txt instead');

    const first = chats()[0]!.body;
    assert.deepEqual(first.tools.map((x: { function: { name: string } }) => x.function.name), ['submit_plan']);
    assert.deepEqual(first.tool_choice, { type: 'function', function: { name: 'submit_plan' } });

    const seq = updates(rt.events).map((u) => `${u.change}${u.stepIndex !== undefined ? `:${u.stepIndex}` : ''}`);
    assert.deepEqual(seq, ['created', 'step_started:0', 'step_done:0', 'step_started:1', 'step_failed:1', 'replanned', 'step_started:2', 'step_done:2']);
    const last = updates(rt.events).at(-1)!;
    assert.deepEqual(
      last.steps.map((s) => [s.title, s.status]),
      [['Read a.txt', 'done'], ['Write b.txt', 'failed'], ['Write c.txt instead', 'done']],
    );
    assert.equal(last.replans, 1);
    assert.equal(updates(rt.events)[4]!.steps[1]!.note, 'the name b.txt is reserved');

    // A step's request carries the plan and names the current step; its tools are the full set again.
    const stepTwo = chats()[3]!.body;
    const lastUser = stepTwo.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content as string;
    assert.match(lastUser, /1\. \[done\] Read a\.txt/);
    assert.match(lastUser, /Do step 2 only: Write b\.txt/);
    assert.ok(stepTwo.tools.some((x: { function: { name: string } }) => x.function.name === 'write_file'));
    assert.equal(stepTwo.tool_choice, undefined);
    // The re-plan request names the failure and requires submit_plan again.
    const replan = chats()[4]!.body;
    assert.deepEqual(replan.tool_choice, { type: 'function', function: { name: 'submit_plan' } });
    assert.match(JSON.stringify(replan.messages), /Step 2 failed: the name b.txt is reserved/);
    // The summary request offers no tools.
    assert.equal(chats()[7]!.body.tools, undefined);
    // rpc mode: the write is a proposal in the run's change batch.
    const ready = rt.events.find((e) => e.type === 'change_batch_ready');
    assert.deepEqual(ready?.type === 'change_batch_ready' && ready.batch.changes.map((c) => c.path), ['c.txt']);
    // Every turn is closed; plan updates come inside the run.
    const trace = eventTrace(rt.events);
    assert.equal(trace.filter((x) => x === 'turn_start').length, trace.filter((x) => x === 'turn_end').length);
    assert.ok(trace.indexOf('plan_update') > trace.indexOf('agent_start') && trace.lastIndexOf('plan_update') < trace.indexOf('agent_end'));
  });

  it('re-plans at most twice: a third failure skips the rest and the run stops with plan_failed', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const fail = { text: 'STEP FAILED: no luck' };
    t.stub.enqueue(plan('One', 'Two'), fail, plan('One again'), fail, plan('One more time', 'Then two'), fail, { text: 'nothing worked' });
    const rt = await t.start(cwd, { args: ['--loop-type', 'plan-and-execute'] });
    const { runId } = await rt.request('prompt', { message: 'try' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'stopped');
    assert.equal(end.stoppedReason, 'plan_failed');
    assert.equal(end.text, 'nothing worked');
    const planRequests = chats().filter((r) => r.body.tool_choice?.function?.name === 'submit_plan');
    assert.equal(planRequests.length, 3, 'the first plan and two re-plans');
    const last = updates(rt.events).at(-1)!;
    assert.equal(last.change, 'skipped');
    assert.equal(last.replans, 2);
    assert.deepEqual(last.steps.map((s) => s.status), ['failed', 'failed', 'failed', 'skipped']);
    assert.equal(chats().length, 7);
  });

  it('a reply without submit_plan gets a reminder; an invalid plan its error; three misses end the run with an error', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'plan-and-execute' });
    t.stub.enqueue({ text: 'I will just do it' }, { toolCalls: [{ name: 'submit_plan', arguments: { steps: [] } }] }, { text: 'no' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'go' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'error');
    assert.match(end.error?.message ?? '', /no valid plan in 3 requests/);
    assert.match(JSON.stringify(chats()[1]!.body.messages), /you did not call submit_plan/);
    const toolResult = chats()[2]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.match(toolResult.content, /non-empty array/);
    assert.equal(updates(rt.events).length, 0);
    const state = await rt.request('getState', {});
    assert.equal(state.status, 'idle');
  });

  it('an abort during a step ends the run as aborted: the step fails and no summary is asked for', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'plan-and-execute' });
    const unique = `${process.pid % 1000}${Date.now() % 100000}`;
    t.stub.enqueue(plan('Wait', 'Then more'), { toolCalls: [{ name: 'run_command', arguments: { command: `sleep 40.${unique}` } }] });
    const rt = await t.start(cwd, { args: ['--yolo'] });
    const { runId } = await rt.request('prompt', { message: 'wait' });
    await rt.waitForEvent('tool_start');
    await rt.request('abort', {});
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'aborted');
    const last = updates(rt.events).at(-1)!;
    assert.deepEqual([last.change, last.stepIndex, last.steps[0]!.note], ['step_failed', 0, 'aborted by the user']);
    assert.equal(chats().length, 2, 'no request after the abort');
    assert.equal((await rt.request('getState', {})).status, 'idle');
  });

  it('a structured-output run: steps answer in text, only the summary request carries the response format', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'plan-and-execute' });
    t.stub.enqueue(plan('Count'), { text: 'three' }, { text: '{"count": 3}' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'count', responseFormat: { type: 'json_object' } });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.text, '{"count": 3}');
    assert.deepEqual(chats().map((r) => r.body.response_format?.type ?? null), [null, null, 'json_object']);
  });
});
