import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { RunFailedError, RuntimeClient, type SdkEvent } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, typesOf, useStubAndAgent } from './helpers';

type Message = { role: string; content: string };

/** The low-level client's operations on their success paths, against the real runtime and the stub model. */
describe('sdk RuntimeClient success paths against the real runtime', function () {
  const t = useStubAndAgent(this);
  const newClient = (files: Record<string, string> = {}) => {
    const { onPermissionRequest: _p, ...options } = testAgentOptions(makeWorkspace(files, t.stub.origin));
    return t.closeAfter(new RuntimeClient(options));
  };
  const body = (i: number) => t.stub.requests[i]!.body as { model: string; messages: Message[]; tools?: Array<{ function: { name: string } }> };

  it('prompt() resolves with the run result; getMessages and getContextUsage reflect the conversation', async () => {
    const c = newClient({ 'a.txt': 'alpha\n' });
    await c.start();
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'a.txt says alpha' });
    const result = await c.prompt('read a.txt');
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'a.txt says alpha');
    assert.match(result.runId, /\S/);
    assert.equal(result.events.at(-1)?.type, 'agent_end');
    assert.ok(result.events.every((e) => !('runId' in e) || e.runId === result.runId));
    const { messages } = await c.getMessages();
    assert.deepEqual(messages.filter((m) => m.role !== 'system').map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    assert.equal(messages.find((m) => m.role === 'user')?.content, 'read a.txt');
    assert.match(messages.find((m) => m.role === 'tool')!.content, /alpha/);
    const usage = await c.getContextUsage();
    assert.ok(usage.usedTokens > 0);
    assert.equal(usage.messageCount, messages.length);
  });

  it('streamPrompt() yields the run events in order and ends after agent_end', async () => {
    const c = newClient();
    await c.start();
    t.stub.enqueue({ text: 'streamed answer' });
    const events: SdkEvent[] = [];
    for await (const e of c.streamPrompt({ message: 'hi' })) events.push(e);
    assert.deepEqual(typesOf(events), ['agent_start', 'turn_start', 'message_start', 'message_end', 'turn_end', 'agent_end']);
    const end = events.at(-1);
    assert.equal(end?.type === 'agent_end' && end.text, 'streamed answer');
  });

  it('interrupt() aborts the run in flight', async () => {
    const c = newClient();
    await c.start();
    t.stub.enqueue({ text: 'this never ends', hang: true });
    const handle = c.startRun('talk forever');
    const runId = await handle.runId;
    for await (const e of handle.events.iterate()) if (e.type === 'message_update') break;
    const answer = await c.interrupt();
    assert.deepEqual(answer, { aborted: true, runId });
    const result = await handle.result;
    assert.equal(result.status, 'aborted');
    assert.equal((await c.getState()).status, 'idle');
  });

  it('setPlanMode, setPermissionMode and setModel change the runtime state; the model id reaches the model', async () => {
    const c = newClient();
    await c.start();
    assert.deepEqual(await c.setPlanMode(true), { planMode: true });
    assert.deepEqual(await c.setPermissionMode('restricted'), { permissionMode: 'restricted' });
    assert.equal((await c.setModel('switched-model')).model, 'switched-model');
    const state = await c.getState();
    assert.equal(state.planMode, true);
    assert.equal(state.permissionMode, 'restricted');
    assert.equal(state.model, 'switched-model');
    assert.equal(state.status, 'idle');
    t.stub.enqueue({ text: 'planned' });
    await c.prompt('plan it');
    assert.equal(body(0).model, 'switched-model');
  });

  it('setSystemPrompt and appendSystemPrompt (chained before start) make the model system message', async () => {
    const c = newClient().setSystemPrompt('REPLACED-SYSTEM').appendSystemPrompt('FIRST-ADDITION').appendSystemPrompt('SECOND-ADDITION');
    await c.start();
    t.stub.enqueue({ text: 'ok' });
    await c.prompt('hi');
    assert.deepEqual(body(0).messages[0], { role: 'system', content: 'REPLACED-SYSTEM\n\nFIRST-ADDITION\n\nSECOND-ADDITION' });
  });

  it('Agent.setPlanMode reaches the runtime: a write is refused and the model is told why', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd));
    assert.deepEqual(await agent.setPlanMode(true), { planMode: true });
    assert.equal((await agent.getState()).planMode, true);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'x' } }] }, { text: 'planned' });
    const result = await agent.run('plan');
    assert.equal(result.steps[0]!.toolResults[0]!.success, false);
    const told = body(1).messages.find((m) => m.role === 'tool');
    assert.match(told!.content, /plan mode is on/);
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
  });

  it('a provider failure (401) fails the run with RunFailedError carrying the runtime code', async () => {
    const agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin)));
    t.stub.enqueue({ status: 401, errorBody: { error: { message: 'bad key' } } });
    await assert.rejects(agent.run('hi'), (e: unknown) => {
      assert.ok(e instanceof RunFailedError);
      assert.equal(e.code, 'auth_failed');
      assert.equal(e.result.status, 'error');
      assert.ok(e.result.events.some((ev) => ev.type === 'error' && ev.code === 'auth_failed'));
      assert.match(e.remedy ?? '', /key/i, 'the runtime\'s remedy travels with the error');
      assert.ok(e.message.endsWith(`Remedy: ${e.remedy}`), e.message);
      return true;
    });
    t.stub.enqueue({ text: 'recovered' });
    assert.equal((await agent.run('again')).text, 'recovered', 'the agent stays usable');
  });
});
