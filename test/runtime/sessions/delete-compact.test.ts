import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const sessionsDir = (env: NodeJS.ProcessEnv) => path.join(env.HOME!, '.agentcli', 'sessions');

async function promptAndWait(rt: RuntimeUnderTest, message: string) {
  const { runId } = await rt.request('prompt', { message });
  return rt.waitForEvent('agent_end', (e) => e.runId === runId);
}

describe('saved sessions: deleteSession, error positions, compactContext (real runtime processes)', () => {
  const t = useStubbedRuntime();

  it('deleteSession removes a saved session; refuses the current one, one another runtime holds, and non-ids', async () => {
    const env = testEnv();
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'one' }, { text: 'two' });
    const holder = await t.start(cwd, { env });
    await promptAndWait(holder, 'held chat');
    const held = (await holder.request('getState', {})).sessionId;

    const rt = await t.start(cwd, { env });
    await promptAndWait(rt, 'my chat');
    const mine = (await rt.request('getState', {})).sessionId;
    assert.equal((await rt.request('getHistory', {})).total, 2);

    const current = await rt.request('deleteSession', { sessionId: mine });
    assert.ok(!current.deleted && current.reason === 'current', JSON.stringify(current));
    const busy = await rt.request('deleteSession', { sessionId: held });
    assert.ok(!busy.deleted && busy.reason === 'busy', JSON.stringify(busy));
    for (const bad of ['../../x', `../${held}`, '/etc/passwd', 'session_0123456789ab']) {
      const r = await rt.request('deleteSession', { sessionId: bad });
      assert.ok(!r.deleted && r.reason === 'not_found', `${bad}: ${JSON.stringify(r)}`);
    }
    assert.ok(fs.existsSync(path.join(sessionsDir(env), `${held}.jsonl`)), 'a refused delete removes nothing');

    await holder.close();
    assert.deepEqual(await rt.request('deleteSession', { sessionId: held }), { deleted: true, sessionId: held });
    assert.equal(fs.existsSync(path.join(sessionsDir(env), `${held}.jsonl`)), false);
    const after = await rt.request('getHistory', {});
    assert.deepEqual(after.entries.map((e) => e.sessionId), [mine]);

    // After a reset the previous chat is no longer current and can go.
    await rt.request('reset', {});
    assert.deepEqual(await rt.request('deleteSession', { sessionId: mine }), { deleted: true, sessionId: mine });
    assert.equal((await rt.request('getHistory', {})).total, 0);
  });

  it('getSession names the failed call of a tool_error and places each error in the conversation', async () => {
    const env = testEnv();
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'read_file', arguments: { path: 'missing.txt' } }] },
      { text: 'one file was missing' },
    );
    const rt = await t.start(cwd, { env });
    await promptAndWait(rt, 'read both');
    const { sessionId } = await rt.request('getState', {});
    const details = await rt.request('getSession', { sessionId });
    assert.deepEqual(details.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'tool', 'assistant']);
    const toolErrors = details.errors.filter((e) => e.code === 'tool_error');
    assert.equal(toolErrors.length, 1, JSON.stringify(details.errors));
    assert.equal(toolErrors[0]!.toolCallId, details.messages[1]!.toolCalls![1]!.id, 'the failed call, not the first one');
    assert.ok(toolErrors[0]!.afterShown! <= details.shown!.length);
    assert.match(toolErrors[0]!.error, /missing\.txt|no such|not found/i);
  });

  it('compactContext summarises the conversation now and emits context_compacted; nothing new to summarise answers false', async () => {
    const env = testEnv();
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'first answer '.repeat(50) }, { text: 'second answer '.repeat(50) }, { text: 'they talked about two answers' });
    const rt = await t.start(cwd, { env });
    await promptAndWait(rt, 'first');
    await promptAndWait(rt, 'second');
    const before = await rt.request('getContextUsage', {});
    const r = await rt.request('compactContext', {});
    assert.equal(r.compacted, true);
    assert.equal(r.messageCount, 2, 'the summary pair');
    assert.ok(r.usedTokens < before.usedTokens, `${r.usedTokens} < ${before.usedTokens}`);
    const event = await rt.waitForEvent('context_compacted');
    assert.equal(event.messagesBefore, 4);
    assert.equal(event.messagesAfter, 2);
    assert.deepEqual(await rt.request('compactContext', {}), { compacted: false, usedTokens: r.usedTokens, messageCount: 2 });
    // What the model is sent next is the summary; what the conversation showed stays for a transcript.
    const details = await rt.request('getSession', { sessionId: (await rt.request('getState', {})).sessionId });
    assert.equal(details.messages.length, 2);
    assert.deepEqual(details.shown?.map((m) => m.content.slice(0, 13)), ['first', 'first answer ', 'second', 'second answer', 'Summary of th', 'Understood. I']);
  });
});
