import assert from 'node:assert/strict';
import { makeWorkspace, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';

const LONG_ANSWER = 'The answer goes on. '.repeat(2000); // 40,000 characters: about 10,000 tokens
const chatBodies = (stub: { requests: Array<{ path: string; body: { messages: Array<{ role: string; content: string }> } }> }) =>
  stub.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body);

describe('context compaction (real runtime processes)', function () {
  this.timeout(60_000); // several runtime processes per test: room for a busy machine
  const t = useStubbedRuntime();
  // A 12,000-token window: the first request (system prompt, tool schemas, a short prompt) fits; with the long answer
  // in the history the second passes 80% of it.
  const config = { ggufserver: { baseUrl: '', contextSize: 12000 } };
  const workspace = () => makeWorkspace({}, t.stub.origin, { ggufserver: { ...config.ggufserver, baseUrl: t.stub.origin } });

  it('on by default: summarises older turns before a request past the threshold; the saved session continues from the summary', async () => {
    const cwd = workspace();
    const env = testEnv();
    const rt = await t.start(cwd, { env });
    assert.deepEqual((await rt.request('getContextUsage', {})).compaction, { enabled: true, threshold: 0.8 });
    t.stub.enqueue({ text: LONG_ANSWER }, { text: 'SUMMARY: the user asked for a long answer about topic one.' }, { text: 'second answer' });
    let { runId } = await rt.request('prompt', { message: 'tell me all about topic one' });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    ({ runId } = await rt.request('prompt', { message: 'now topic two' }));
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed');
    assert.equal(end.text, 'second answer');
    const compacted = await rt.waitForEvent('context_compacted');
    assert.equal(compacted.runId, runId);
    assert.deepEqual([compacted.messagesBefore, compacted.messagesAfter], [3, 3]);
    assert.ok(compacted.tokensAfter < compacted.tokensBefore - 9000, JSON.stringify(compacted));

    const [, summaryRequest, next] = chatBodies(t.stub);
    assert.match(summaryRequest!.messages[0]!.content, /Summarise the conversation/);
    assert.match(summaryRequest!.messages[1]!.content, /user: tell me all about topic one/);
    assert.deepEqual(next!.messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.match(next!.messages[1]!.content, /SUMMARY: the user asked for a long answer/);
    assert.equal(next!.messages[3]!.content, 'now topic two');
    assert.ok(!JSON.stringify(next).includes('The answer goes on.'), 'the long answer is no longer sent');

    const { sessionId } = await rt.request('getState', {});
    await rt.close();
    const rt2 = await t.start(cwd, { env });
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached && attached.messageCount === 4, JSON.stringify(attached));
    const { messages } = await rt2.request('getMessages', {});
    assert.match(messages[0]!.content, /SUMMARY: the user asked/);
    assert.deepEqual(messages.slice(2).map((m) => m.content), ['now topic two', 'second answer']);
  });

  it('compacts at most once per prompt and ends with context_too_long and a remedy when the request still does not fit', async () => {
    const rt = await t.start(workspace());
    await rt.request('setContextCompact', { enabled: true });
    t.stub.enqueue({ text: 'short first answer' }, { text: 'SUMMARY: a short exchange.' });
    let { runId } = await rt.request('prompt', { message: 'hello' });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    ({ runId } = await rt.request('prompt', { message: `read this: ${'x'.repeat(80_000)}` }));
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'error');
    const error = rt.events.find((e) => e.type === 'error' && e.runId === runId);
    assert.ok(error && error.type === 'error' && error.code === 'context_too_long', JSON.stringify(error));
    assert.match(error.remedy ?? '', /start a new conversation/);
    assert.equal(rt.events.filter((e) => e.type === 'context_compacted').length, 1, 'one compaction');
    assert.equal(chatBodies(t.stub).length, 2, 'the first answer and the summary: the oversized request was never sent');
  });

  for (const how of ['compaction.enabled: false', 'setContextCompact({ enabled: false })'] as const) {
    it(`stays off when turned off (${how}): the long history is sent as it is`, async () => {
      const off = how.startsWith('compaction');
      const rt = await t.start(makeWorkspace({}, t.stub.origin, { ggufserver: { ...config.ggufserver, baseUrl: t.stub.origin }, ...(off ? { compaction: { enabled: false } } : {}) }));
      if (!off) assert.deepEqual(await rt.request('setContextCompact', { enabled: false }), { enabled: false });
      assert.equal((await rt.request('getContextUsage', {})).compaction?.enabled, false);
      t.stub.enqueue({ text: LONG_ANSWER }, { text: 'fine' });
      for (const message of ['one', 'two']) {
        const { runId } = await rt.request('prompt', { message });
        await rt.waitForEvent('agent_end', (e) => e.runId === runId);
      }
      assert.equal(rt.events.filter((e) => e.type === 'context_compacted').length, 0);
      assert.equal(chatBodies(t.stub).length, 2);
      assert.ok(JSON.stringify(chatBodies(t.stub)[1]!).includes('The answer goes on.'), 'the long answer is sent again');
    });
  }
});
