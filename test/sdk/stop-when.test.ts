import assert from 'node:assert/strict';
import {
  InvalidArgumentError,
  StopConditionError,
  hasToolCall,
  isStepCount,
  type StopCondition,
} from '../../src/sdk';
import { makeWorkspace, testAgentOptions, typesOf, useStubAndAgent } from './helpers';

/** Step control (spec 001 §4.5) against the real runtime. Requires `npm run build` (done here when stale). */
describe('sdk stopWhen against the real runtime', function () {
  const t = useStubAndAgent(this);
  let sent: Array<{ method: string; params: unknown }>;
  beforeEach(() => {
    sent = [];
  });

  const start = async (files: Record<string, string>) => {
    const cwd = makeWorkspace(files, t.stub.origin);
    return t.create(
      testAgentOptions(cwd, {
        onTrace: (dir, msg) => {
          const m = msg as { method?: string; params?: unknown };
          if (dir === 'send' && m.method) sent.push({ method: m.method, params: m.params });
        },
      }),
    );
  };
  const stepAnswers = () => sent.filter((m) => m.method === 'respondToStep').map((m) => (m.params as { decision: string }).decision);

  it('isStepCount(1) stops after the first step; the next run continues with the stored tool result', async () => {
    const a = await start({ 'a.txt': 'alpha-content\n', 'b.txt': 'beta\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    const stopped = await a.run('read a then b', { stopWhen: isStepCount(1) });
    assert.equal(stopped.status, 'stopped');
    assert.equal(stopped.stoppedReason, 'stop_condition');
    assert.equal(stopped.steps.length, 1);
    assert.equal(stopped.steps[0]!.toolCalls[0]!.tool, 'read_file');
    assert.deepEqual(typesOf(stopped.events), [
      'agent_start', 'turn_start', 'message_start', 'message_end', 'tool_start', 'tool_end', 'step_end', 'turn_end', 'agent_end',
    ]);
    const turnEnd = stopped.events.find((e) => e.type === 'turn_end');
    assert.equal(turnEnd?.type === 'turn_end' && turnEnd.reason, 'stop_condition');
    const stepEnd = stopped.events.find((e) => e.type === 'step_end');
    assert.equal(stepEnd?.type === 'step_end' && stepEnd.awaitingDecision, true);
    assert.deepEqual(stepAnswers(), ['stop']);
    assert.equal(t.stub.requests.length, 1, 'no model request after the stop');

    t.stub.requests.length = 0;
    t.stub.enqueue({ text: 'a.txt holds alpha-content.' });
    const next = await a.run('continue');
    const body = t.stub.requests[0]!.body as { messages: Array<{ role: string; content: string }> };
    const toolMessage = body.messages.find((m) => m.role === 'tool');
    assert.ok(toolMessage, 'the stored tool result is in the next request');
    assert.match(toolMessage.content, /alpha-content/);
    assert.equal(body.messages.at(-1)?.content, 'continue');
    assert.equal(next.status, 'completed');
    assert.equal(next.text, 'a.txt holds alpha-content.');
  });

  it('continues while conditions are false and stops on hasToolCall', async () => {
    const a = await start({ 'a.txt': 'A\n' });
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ name: 'list_files', arguments: {} }] },
    );
    const seen: number[] = [];
    const custom: StopCondition = async ({ steps }) => {
      seen.push(steps.length);
      return false;
    };
    const result = await a.run('look around', { stopWhen: [custom, hasToolCall('list_files')] });
    assert.equal(result.status, 'stopped');
    assert.deepEqual(seen, [1, 2]);
    assert.deepEqual(stepAnswers(), ['continue', 'stop']);
    assert.deepEqual(result.steps.map((s) => s.toolCalls[0]!.tool), ['read_file', 'list_files']);
  });

  it('a throwing predicate stops the run at that step, then surfaces the error; the agent stays usable', async () => {
    const a = await start({ 'a.txt': 'A\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    const run = a.send('read', {
      stopWhen: () => {
        throw new Error('predicate exploded');
      },
    });
    const types: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const e of run.stream()) types.push(e.type);
      })(),
      StopConditionError,
    );
    await assert.rejects(run.wait(), (e: unknown) => {
      assert.ok(e instanceof StopConditionError);
      assert.equal(e.stepNumber, 1);
      assert.match(e.message, /predicate exploded/);
      assert.equal((e.cause as Error).message, 'predicate exploded');
      return true;
    });
    assert.equal(types.at(-1), 'agent_end', 'the stop handshake completed before the error');
    assert.deepEqual(stepAnswers(), ['stop']);
    assert.equal(t.stub.requests.length, 1);
    t.stub.enqueue({ text: 'fine' });
    assert.equal((await a.run('next')).text, 'fine');
  });

  it('abort while a predicate is pending: the late answer is ignored and no decision is sent', async () => {
    const a = await start({ 'a.txt': 'A\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    let release!: (v: boolean) => void;
    let called!: () => void;
    const predicateCalled = new Promise<void>((r) => (called = r));
    const run = a.send('read', {
      stopWhen: () => {
        called();
        return new Promise<boolean>((r) => (release = r));
      },
    });
    await predicateCalled;
    await run.abort();
    const result = await run.wait();
    assert.equal(result.status, 'aborted');
    release(true);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(stepAnswers(), []);
  });

  it('abort while a predicate is pending: a late rejection is ignored too (no StopConditionError, no decision)', async () => {
    const a = await start({ 'a.txt': 'A\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] });
    let reject!: (e: Error) => void;
    let called!: () => void;
    const predicateCalled = new Promise<void>((r) => (called = r));
    const run = a.send('read', {
      stopWhen: () => {
        called();
        return new Promise<boolean>((_resolve, r) => (reject = r));
      },
    });
    await predicateCalled;
    await run.abort();
    const result = await run.wait();
    assert.equal(result.status, 'aborted');
    reject(new Error('late predicate failure'));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(stepAnswers(), []);
    assert.equal((await run.wait()).status, 'aborted', 'the settled result is unchanged');
    t.stub.enqueue({ text: 'still usable' });
    assert.equal((await a.run('next')).text, 'still usable');
  });

  // Spec 001 §6: "`step_end` | after each completed tool step in a run with `stopWhen` | `step` (an AgentStep)".
  it('without stopWhen the runtime never waits for a decision and emits no step_end; the steps are still collected', async () => {
    const a = await start({ 'a.txt': 'A\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'done' });
    const result = await a.run('read');
    assert.equal(result.events.filter((e) => e.type === 'step_end').length, 0);
    assert.deepEqual(result.steps.map((s) => s.toolCalls), [[{ tool: 'read_file', args: { path: 'a.txt' } }]]);
    assert.equal(result.steps[0]!.toolResults[0]!.success, true);
    assert.deepEqual(stepAnswers(), []);
    const prompt = sent.find((m) => m.method === 'prompt')?.params as { stepControl?: boolean } | undefined;
    assert.equal(prompt?.stepControl, false);
  });

  it('isStepCount(0), hasToolCall("") and an empty stopWhen are rejected before anything is sent', async () => {
    const a = await start({});
    assert.throws(() => isStepCount(0), InvalidArgumentError);
    assert.throws(() => hasToolCall(''), InvalidArgumentError);
    assert.throws(() => a.send('x', { stopWhen: [] }), InvalidArgumentError);
    assert.equal(sent.filter((m) => m.method === 'prompt').length, 0);
  });
});
