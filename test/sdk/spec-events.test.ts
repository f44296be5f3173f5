import assert from 'node:assert/strict';
import path from 'node:path';
import { Agent, InvalidEventError, RuntimeClient, type GenericEvent, type SdkEvent } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';
import { makeTempDir } from '../helpers/temp-dir';

const FAKE = path.join(__dirname, 'fixtures', 'fake-runtime.ts');

/** Spec 001 §6 "Events" against a runtime double that speaks a newer protocol. */
describe('sdk events: unknown notifications (spec 001 §6)', function () {
  this.timeout(30_000);
  const cwd = makeTempDir('sdk-generic-');
  const options = (behaviour: string) => ({
    cwd,
    cliPath: FAKE,
    nodeArgs: ['--require', require.resolve('tsx/cjs')],
    env: { FAKE_RUNTIME: behaviour },
  });
  let agent: Agent | undefined;
  let client: RuntimeClient | undefined;
  afterEach(async () => {
    await agent?.close();
    await client?.stop();
    agent = client = undefined;
  });

  // Spec 001 §6: "Unknown notifications fall back to a generic form."
  it('an event type the SDK does not know reaches the run in the generic form; the run completes', async () => {
    agent = await Agent.create(options('newer-events'));
    const streamed: SdkEvent[] = [];
    const run = agent.send('hi');
    for await (const e of run.stream()) streamed.push(e);
    const result = await run.wait();
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'done');
    assert.deepEqual(
      result.events.map((e) => (e.type === 'generic' ? `generic:${e.eventType}` : e.type)),
      ['agent_start', 'generic:learning_update', 'generic:rate_limit_notice', 'generic:rateLimit', 'agent_end'],
      "the run's own and run-less unknown events and notifications, in order; another run's event is not this run's",
    );
    assert.deepEqual(streamed, result.events);
    const iteration = result.events[1] as GenericEvent;
    assert.equal(iteration.runId, 'run-fake-1');
    assert.equal(iteration.sessionId, 'sess-fake');
    assert.equal(iteration.method, 'event');
    assert.deepEqual(iteration.payload, { sessionId: 'sess-fake', type: 'learning_update', runId: 'run-fake-1', iteration: 1, summary: 'looked around' });
    const rateLimit = result.events[3] as GenericEvent;
    assert.deepEqual([rateLimit.method, rateLimit.runId, rateLimit.payload], ['rateLimit', 'run-fake-1', { runId: 'run-fake-1', retryAfterMs: 250 }]);
  });

  it('the low-level client hands unknown events to onGenericEvent and never to onEvent', async () => {
    client = new RuntimeClient(options('newer-events'));
    await client.start();
    const known: string[] = [];
    const generic: string[] = [];
    client.onEvent((e) => known.push(e.type));
    client.onGenericEvent((e) => generic.push(e.eventType));
    const result = await client.prompt('hi');
    assert.equal(result.status, 'completed');
    assert.deepEqual(known, ['agent_start', 'agent_end']);
    assert.deepEqual(generic, ['learning_update', 'rate_limit_notice', 'learning_update', 'rateLimit']);
  });

  it('a known type that breaks its schema still fails the run (known types stay validated)', async () => {
    agent = await Agent.create(options('invalid-agent-end'));
    await assert.rejects(agent.run('hi'), (e: unknown) => e instanceof InvalidEventError && e.eventType === 'agent_end');
  });
});

/** Spec 001 §6/§7 tool failures, against the real runtime. */
describe('sdk events: tool failures (spec 001 §6, §7)', function () {
  const t = useStubAndAgent(this);

  // Spec 001 §7: "transport, runtime or tool failure | `error` event with `code` and `error`";
  // §6: "`error` | transport, runtime or tool failure | `code`, `error`".
  it('a failed tool gives tool_end success:false and then an error event with code tool_error naming the call', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo first-line; exit 3' } }] }, { text: 'it failed' });
    const agent = await t.create(testAgentOptions(cwd));
    const result = await agent.run('run it');
    assert.equal(result.status, 'completed', 'a tool failure is told to the model; the run goes on');
    const end = result.events.find((e) => e.type === 'tool_end');
    assert.ok(end?.type === 'tool_end' && end.success === false);
    const errors = result.events.filter((e) => e.type === 'error');
    assert.equal(errors.length, 1);
    const error = errors[0]!;
    assert.ok(error.type === 'error');
    assert.equal(error.code, 'tool_error');
    assert.equal(error.toolCallId, end.toolCallId);
    assert.equal(error.runId, result.id);
    assert.match(error.error, /^run_command failed: first-line … .*3/);
    assert.ok(result.events.indexOf(error) === result.events.indexOf(end) + 1, 'right after its tool_end');
  });

  it('a tool that succeeds, or one stopped by an abort, gives no error event', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'read' });
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'sleep 30' } }] });
    const agent = await t.create(testAgentOptions(cwd));
    const ok = await agent.run('read');
    assert.equal(ok.events.filter((e) => e.type === 'error').length, 0);
    const run = agent.send('sleep');
    for await (const e of run.stream()) if (e.type === 'tool_start') void run.abort();
    const aborted = await run.wait();
    assert.equal(aborted.status, 'aborted');
    assert.ok(aborted.events.some((e) => e.type === 'tool_end' && !e.success));
    assert.equal(aborted.events.filter((e) => e.type === 'error').length, 0);
  });
});
