import assert from 'node:assert/strict';
import { BatchPendingError, RequestTimeoutError, RuntimeExitedError, RuntimeNotRunningError, type SdkEvent } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, typesOf, useStubAndAgent } from './helpers';

/** Requires the built runtime (`npm run build`; done here when dist is missing or stale). */
describe('sdk Agent against the real runtime: runs, streams, abort, close, failures', function () {
  const t = useStubAndAgent(this);

  const twoToolTurn = () =>
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
      { text: 'Now b.', toolCalls: [{ name: 'read_file', arguments: { path: 'b.txt' } }] },
      { text: 'a says alpha, b says beta.' },
    );
  // No step_end: that event belongs to runs with stopWhen (spec 001 §6); the steps are built from the tool events.
  const TWO_STEP_ORDER = [
    'agent_start',
    'turn_start', 'message_start', 'message_end', 'tool_start', 'tool_end', 'turn_end',
    'turn_start', 'message_start', 'message_end', 'tool_start', 'tool_end', 'turn_end',
    'turn_start', 'message_start', 'message_end', 'turn_end',
    'agent_end',
  ];

  it('run: a multi-step tool turn gives the result, steps and ordered events', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, t.stub.origin);
    twoToolTurn();
    const agent = await t.create(testAgentOptions(cwd));
    assert.equal(agent.info.provider, 'ggufserver');
    const result = await agent.run('What do a.txt and b.txt say?');
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'a says alpha, b says beta.');
    assert.ok(result.id.length > 0);
    assert.deepEqual(typesOf(result.events), TWO_STEP_ORDER);
    assert.ok(result.events.every((e) => !('runId' in e) || e.runId === result.id), 'only this run');
    assert.equal(result.steps.length, 2);
    assert.deepEqual(result.steps.map((s) => s.stepNumber), [1, 2]);
    assert.deepEqual(result.steps[0]!.toolCalls, [{ tool: 'read_file', args: { path: 'a.txt' } }]);
    assert.equal(result.steps[0]!.toolResults[0]!.success, true);
    assert.match(result.steps[0]!.toolResults[0]!.output ?? '', /alpha/);
    assert.equal(result.steps[1]!.thought, 'Now b.');
    assert.match(result.steps[1]!.toolResults[0]!.output ?? '', /beta/);
    assert.equal(t.stub.requests.length, 3);
  });

  it('stream: yields the same events live, in order, matched on type', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, t.stub.origin);
    twoToolTurn();
    const agent = await t.create(testAgentOptions(cwd));
    const run = agent.send('What do a.txt and b.txt say?');
    const seen: SdkEvent[] = [];
    let deltas = '';
    for await (const e of run.stream()) {
      seen.push(e);
      if (e.type === 'message_update') deltas += e.delta;
    }
    assert.deepEqual(typesOf(seen), TWO_STEP_ORDER);
    assert.ok(deltas.endsWith('a says alpha, b says beta.'));
    const result = await run.wait();
    assert.deepEqual(result.events, seen);
    // A second stream() replays the whole run.
    const replay: string[] = [];
    for await (const e of run.stream()) replay.push(e.type);
    assert.deepEqual(replay, seen.map((e) => e.type));
  });

  it('send while a run is active queues the prompt; runs go in order', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'first answer', chunkDelayMs: 20 }, { text: 'second answer' });
    const agent = await t.create(testAgentOptions(cwd));
    const first = agent.send('one');
    const second = agent.send('two');
    assert.equal(second.status, 'queued');
    const [r1, r2] = await Promise.all([first.wait(), second.wait()]);
    assert.equal(r1.text, 'first answer');
    assert.equal(r2.text, 'second answer');
    assert.notEqual(r1.id, r2.id);
    const lastUser = (i: number) => t.stub.requests[i]!.body.messages.filter((m: { role: string }) => m.role === 'user').at(-1).content;
    assert.equal(lastUser(0), 'one');
    assert.equal(lastUser(1), 'two');
  });

  it('abort mid-stream ends the run as aborted; the next run works', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'a long answer that streams slowly, '.repeat(20), chunkDelayMs: 40 }, { text: 'after abort' });
    const agent = await t.create(testAgentOptions(cwd));
    const run = agent.send('talk a lot');
    const types: string[] = [];
    for await (const e of run.stream()) {
      types.push(e.type);
      if (e.type === 'message_update' && types.filter((t) => t === 'message_update').length === 2) await run.abort();
    }
    const result = await run.wait();
    assert.equal(result.status, 'aborted');
    const turnEnd = result.events.find((e) => e.type === 'turn_end');
    assert.equal(turnEnd?.type === 'turn_end' && turnEnd.reason, 'aborted');
    assert.equal(types.at(-1), 'agent_end');
    const next = await agent.run('again');
    assert.equal(next.status, 'completed');
    assert.equal(next.text, 'after abort');
  });

  it('abort of a queued run ends it at once without reaching the runtime', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'only one', chunkDelayMs: 20 });
    const agent = await t.create(testAgentOptions(cwd));
    const first = agent.send('one');
    const queued = agent.send('never sent');
    await queued.abort();
    assert.deepEqual(await queued.wait(), { id: '', status: 'aborted', text: '', events: [], steps: [], changes: [] });
    assert.equal((await first.wait()).text, 'only one');
    assert.equal(t.stub.requests.length, 1);
  });

  it('a silent run fails with RequestTimeoutError after the timeout and the agent keeps working', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ hang: true, text: 'never finished' }, { text: 'recovered' });
    const agent = await t.create(testAgentOptions(cwd, { timeout: 2_000 }));
    await assert.rejects(agent.run('hang'), (e: unknown) => {
      assert.ok(e instanceof RequestTimeoutError);
      assert.equal(e.method, 'prompt');
      assert.equal(e.timeoutMs, 2_000);
      return true;
    });
    // The SDK aborted the silent run in the runtime, so the next prompt is accepted.
    const next = await agent.run('again');
    assert.equal(next.text, 'recovered');
  });

  it('a runtime killed with SIGKILL mid-run fails the run and its stream with RuntimeExitedError', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ hang: true, text: 'partial' });
    const agent = await t.create(testAgentOptions(cwd));
    const run = agent.send('hang');
    const pid = agent.client.pid!;
    const streamed: string[] = [];
    const streaming = (async () => {
      for await (const e of run.stream()) {
        streamed.push(e.type);
        if (e.type === 'message_start') process.kill(pid, 'SIGKILL');
      }
    })();
    await assert.rejects(streaming, (e: unknown) => e instanceof RuntimeExitedError && e.signal === 'SIGKILL');
    await assert.rejects(run.wait(), (e: unknown) => e instanceof RuntimeExitedError && /unexpectedly/.test(e.message));
    assert.ok(streamed.includes('message_start'));
    await assert.rejects(agent.getState(), RuntimeExitedError);
    await agent.close();
  });

  it('close() twice is safe; a run in progress ends as aborted; a closed agent refuses new prompts and fails queued ones', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ hang: true });
    const agent = await t.create(testAgentOptions(cwd));
    const active = agent.send('hang');
    const queued = agent.send('queued');
    await Promise.all([agent.close(), agent.close()]);
    await agent.close();
    assert.equal(agent.client.isRunning, false);
    const ended = await active.wait();
    assert.equal(ended.status, 'aborted');
    assert.ok(ended.events.some((e) => e.type === 'agent_end'), 'the runtime ended the run itself');
    await assert.rejects(queued.wait(), RuntimeNotRunningError);
    assert.throws(() => agent.send('late'), RuntimeNotRunningError);
  });

  it('a prompt while a change batch waits is refused with BatchPendingError; deciding the batch unblocks', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } }] }, { text: 'proposed' }, { text: 'next' });
    // Interactive mode without onChangeBatch: nobody decided, so the batch waits (listed as undecided).
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'interactive' }));
    const first = await agent.run('change a.txt');
    const ready = first.events.find((e) => e.type === 'change_batch_ready');
    assert.ok(ready?.type === 'change_batch_ready', 'the edit waits as a batch');
    assert.deepEqual(first.changes.map((c) => c.outcome), ['undecided']);
    await assert.rejects(agent.run('more'), (e: unknown) => {
      assert.ok(e instanceof BatchPendingError);
      assert.equal(e.code, -32011);
      assert.match(e.message, /decideChanges/);
      return true;
    });
    const decided = await agent.client.decideChanges({ batchId: ready.batch.id, decision: 'reject_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['rejected']);
    assert.equal((await agent.run('more')).text, 'next');
  });
});
