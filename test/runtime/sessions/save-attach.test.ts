import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const sessionsDir = (env: NodeJS.ProcessEnv) => path.join(env.HOME!, '.agentcli', 'sessions');
const chatRequests = (stub: { requests: Array<{ path: string; body: { messages: Array<Record<string, unknown>> } }> }) =>
  stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

async function promptAndWait(rt: RuntimeUnderTest, message: string) {
  const { runId } = await rt.request('prompt', { message });
  return rt.waitForEvent('agent_end', (e) => e.runId === runId);
}

describe('saved sessions: save, list, attach (real runtime processes)', function () {
  this.timeout(60_000); // several runtime processes per test: room for a busy machine
  const t = useStubbedRuntime();

  it('a new runtime lists the saved session and, attached, sends its whole history (tool call and result included)', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha line\n' }, t.stub.origin);
    const env = testEnv();
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'it says alpha' });
    const rt1 = await t.start(cwd, { env });
    const end = await promptAndWait(rt1, 'what is in a.txt?');
    assert.equal(end.status, 'completed');
    const { sessionId } = await rt1.request('getState', {});
    rt1.proc.stdin!.end();
    const sessionEnd = await rt1.waitForEvent('session_end', undefined, 5000);
    assert.equal(sessionEnd.sessionId, sessionId, 'session_end carries the id the history lists');
    await rt1.close();

    const dir = sessionsDir(env);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['index.jsonl', `${sessionId}.jsonl`], 'the lock went with the runtime');
    assert.equal(fs.statSync(path.join(dir, 'index.jsonl')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dir, `${sessionId}.jsonl`)).mode & 0o777, 0o600);

    const rt2 = await t.start(cwd, { env });
    const history = await rt2.request('getHistory', {});
    assert.equal(history.total, 1);
    assert.equal(history.page, 1);
    const entry = history.entries[0]!;
    assert.equal(entry.sessionId, sessionId);
    assert.equal(entry.title, 'what is in a.txt?');
    assert.equal(entry.messageCount, 4); // user, assistant with the tool call, tool result, assistant
    assert.equal(entry.provider, 'ggufserver');
    assert.equal(fs.realpathSync(entry.cwd), fs.realpathSync(cwd));

    const details = await rt2.request('getSession', { sessionId });
    assert.deepEqual(
      details.messages.map((m) => m.role),
      ['user', 'assistant', 'tool', 'assistant'],
    );
    assert.equal(details.skippedLines, 0);

    const attached = await rt2.request('attachSession', { sessionId });
    assert.deepEqual(attached, { attached: true, sessionId, messageCount: 4, pendingBatch: null, skippedLines: 0 });
    assert.equal((await rt2.request('getState', {})).sessionId, sessionId);

    t.stub.enqueue({ text: 'still alpha' });
    await promptAndWait(rt2, 'and now?');
    const sent = chatRequests(t.stub).at(-1)!.body.messages;
    assert.deepEqual(
      sent.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'assistant', 'user'],
    );
    const call = (sent[2]!.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>)[0]!;
    assert.equal(call.function.name, 'read_file');
    assert.equal(sent[3]!.tool_call_id, call.id);
    assert.match(String(sent[3]!.content), /alpha line/);
    // The continued session is saved in the same file: 6 messages now.
    const again = await rt2.request('getHistory', {});
    assert.equal(again.total, 1);
    assert.equal(again.entries[0]!.messageCount, 6);
  });

  it('attach failures are typed: unknown id, path traversal, corrupt file, other workspace, busy', async () => {
    const env = testEnv();
    const cwdA = makeWorkspace({}, t.stub.origin);
    const cwdB = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'hello' });
    const holder = await t.start(cwdA, { env });
    await promptAndWait(holder, 'first');
    const { sessionId } = await holder.request('getState', {});

    const other = await t.start(cwdA, { env });
    assert.deepEqual(
      await other.request('attachSession', { sessionId: 'session_0123456789ab' }).then((r) => [r.attached, !r.attached && r.reason]),
      [false, 'not_found'],
    );
    for (const bad of ['../../x', `../${sessionId}`, `${sessionId}/../${sessionId}`, '/etc/passwd']) {
      const r = await other.request('attachSession', { sessionId: bad });
      assert.ok(!r.attached && r.reason === 'not_found', `${bad}: ${JSON.stringify(r)}`);
    }
    const busy = await other.request('attachSession', { sessionId });
    assert.ok(!busy.attached && busy.reason === 'busy', JSON.stringify(busy));
    assert.notEqual((await other.request('getState', {})).sessionId, sessionId, 'never a different session');

    const corruptId = 'session_c0ffee000000';
    fs.writeFileSync(path.join(sessionsDir(env), `${corruptId}.jsonl`), 'not json at all\n{"type":"message"}\n');
    const corrupt = await other.request('attachSession', { sessionId: corruptId });
    assert.ok(!corrupt.attached && corrupt.reason === 'corrupt', JSON.stringify(corrupt));
    await assert.rejects(other.request('getSession', { sessionId: 'session_0123456789ab' }), /no saved session/);

    await holder.close();
    const elsewhere = await t.start(cwdB, { env });
    const otherWs = await elsewhere.request('attachSession', { sessionId });
    assert.ok(!otherWs.attached && otherWs.reason === 'other_workspace', JSON.stringify(otherWs));
    assert.equal((await elsewhere.request('getHistory', {})).total, 0, 'another folder lists none of A');
    assert.equal((await elsewhere.request('getHistory', { cwd: cwdA })).total, 1);
    assert.equal((await elsewhere.request('getHistory', { allWorkspaces: true })).total, 1, 'the corrupt file is left out');

    // The holder is gone: its lock no longer counts.
    const now = await other.request('attachSession', { sessionId });
    assert.equal(now.attached, true);
  });

  it('a runtime killed mid-turn: the completed messages are attached, a torn last line is skipped and reported', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    const env = testEnv();
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'thinking about', hang: true });
    const rt1 = await t.start(cwd, { env });
    await rt1.request('prompt', { message: 'read it' });
    await rt1.waitForEvent('message_update', (e) => e.delta.length > 0 && rt1.events.some((x) => x.type === 'tool_end'));
    const { sessionId } = await rt1.request('getState', {});
    rt1.proc.kill('SIGKILL');
    await new Promise((resolve) => rt1.proc.once('exit', resolve));
    // A write cut short by the kill leaves a line without its newline; simulate one (the runtime writes whole lines).
    const file = path.join(sessionsDir(env), `${sessionId}.jsonl`);
    fs.appendFileSync(file, '{"type":"message","at":"2026-01-01T00:00:00.000Z","count":4,"provider":"ggufserver","mo');

    const rt2 = await t.start(cwd, { env });
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached, JSON.stringify(attached));
    assert.equal(attached.skippedLines, 1);
    assert.equal(attached.messageCount, 3); // user, assistant with the tool call, tool result
    const { messages } = await rt2.request('getMessages', {});
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool']);
    // The torn tail was cut off: the next prompt's lines follow whole lines and the file reads clean.
    t.stub.enqueue({ text: 'done' });
    await promptAndWait(rt2, 'go on');
    const details = await rt2.request('getSession', { sessionId });
    assert.equal(details.skippedLines, 0);
    assert.deepEqual(details.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user', 'assistant']);
  });

  it('an undecided change batch comes back as pending after attach, and applies on accept', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'fresh\n' } }] }, { text: 'wrote it' });
    const rt1 = await t.start(cwd, { env });
    await promptAndWait(rt1, 'make new.txt');
    const { sessionId, pendingBatch } = await rt1.request('getState', {});
    assert.equal(pendingBatch?.status, 'pending');
    await rt1.close();
    assert.equal(fs.existsSync(path.join(cwd, 'new.txt')), false);

    const rt2 = await t.start(cwd, { env });
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached, JSON.stringify(attached));
    assert.equal(attached.pendingBatch?.id, pendingBatch!.id);
    assert.deepEqual(attached.pendingBatch?.changes.map((c) => c.path), ['new.txt']);
    assert.equal((await rt2.request('getState', {})).pendingBatch?.id, pendingBatch!.id);
    await assert.rejects(rt2.request('prompt', { message: 'more' }), /waiting for a decision/);
    const decided = await rt2.request('decideChanges', { batchId: pendingBatch!.id, decision: 'accept_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['applied']);
    assert.equal(fs.readFileSync(path.join(cwd, 'new.txt'), 'utf8'), 'fresh\n');
    // Decided: a third runtime finds no pending batch in the session.
    await rt2.close();
    const rt3 = await t.start(cwd, { env });
    const again = await rt3.request('attachSession', { sessionId });
    assert.ok(again.attached && again.pendingBatch === null, JSON.stringify(again));
  });

  it('a runtime killed during a tool call: the call gets a "not run" result, so the next request is valid', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    const outside = makeWorkspace({ 'x.txt': 'x\n' });
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'x.txt') } }] });
    const rt1 = await t.start(cwd, { env });
    await rt1.request('prompt', { message: 'read outside' });
    await rt1.waitForEvent('directory_access_request'); // never answered: the tool call is in flight when the runtime dies
    const { sessionId } = await rt1.request('getState', {});
    rt1.proc.kill('SIGKILL');
    await new Promise((resolve) => rt1.proc.once('exit', resolve));

    const rt2 = await t.start(cwd, { env });
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached && attached.skippedLines === 0, JSON.stringify(attached));
    t.stub.enqueue({ text: 'ok' });
    await promptAndWait(rt2, 'again');
    const sent = chatRequests(t.stub).at(-1)!.body.messages;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'user']);
    assert.match(String(sent[3]!.content), /not run/);
    // The made-up result is saved too: the file reads as a valid conversation.
    const details = await rt2.request('getSession', { sessionId });
    assert.deepEqual(details.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user', 'assistant']);
    assert.equal((await rt2.request('getHistory', {})).entries[0]?.messageCount, 5);
  });

  it('sessions.persist false writes nothing', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { sessions: { persist: false } });
    const env = testEnv();
    t.stub.enqueue({ text: 'hi' });
    const rt = await t.start(cwd, { env });
    await promptAndWait(rt, 'hello');
    await rt.close();
    assert.equal(fs.existsSync(sessionsDir(env)), false);
  });

  it('saving turned off and on again with configure goes on in the same file, catching up', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv();
    const rt = await t.start(cwd, { env });
    t.stub.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    const prompt = async (message: string) => {
      const { runId } = await rt.request('prompt', { message });
      await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    };
    await prompt('first');
    await rt.request('configure', { config: { sessions: { persist: false } } });
    await prompt('second');
    const { sessionId } = await rt.request('getState', {});
    const file = path.join(sessionsDir(env), `${sessionId}.jsonl`);
    const whileOff = fs.readFileSync(file, 'utf8');
    assert.ok(!whileOff.includes('second'), 'nothing is written while saving is off');
    await rt.request('configure', { config: {} });
    await prompt('third');
    const details = await rt.request('getSession', { sessionId });
    assert.deepEqual(details.messages.map((m) => m.content), ['first', 'one', 'second', 'two', 'third', 'three']);
  });

  it('reset starts a new saved session; sessions.maxCount keeps the newest', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { sessions: { maxCount: 2 } });
    const env = testEnv();
    const rt = await t.start(cwd, { env });
    const ids: string[] = [];
    for (const word of ['one', 'two', 'three']) {
      t.stub.enqueue({ text: word });
      await promptAndWait(rt, `prompt ${word}`);
      ids.push((await rt.request('getState', {})).sessionId);
      const { sessionId } = await rt.request('reset', {});
      assert.ok(!ids.includes(sessionId), 'reset gives a new id');
    }
    assert.equal(new Set(ids).size, 3);
    const history = await rt.request('getHistory', { pageSize: 10 });
    assert.deepEqual(history.entries.map((e) => e.title), ['prompt three', 'prompt two']);
    assert.equal(fs.existsSync(path.join(sessionsDir(env), `${ids[0]}.jsonl`)), false, 'the oldest was removed');
    const page2 = await rt.request('getHistory', { page: 2, pageSize: 1 });
    assert.deepEqual([page2.total, page2.entries[0]?.sessionId], [2, ids[1]]);
  });

  it('secrets never reach the file: key values from the environment and the config are masked', async () => {
    const envKey = 'env-secret-value-7f3a9c21';
    const configKey = 'cfg-secret-value-1b2c3d4e';
    const cwd = makeWorkspace({ 'a.txt': 'x\n' }, t.stub.origin, { vendorapi: { apiKey: configKey } });
    const env = testEnv({ MY_SERVICE_TOKEN: envKey });
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: `${envKey}.txt` } }] },
      { text: `the keys are ${envKey} and ${configKey}` },
    );
    const rt = await t.start(cwd, { env });
    await promptAndWait(rt, `echo ${envKey} please`);
    const { sessionId } = await rt.request('getState', {});
    const raw = fs.readFileSync(path.join(sessionsDir(env), `${sessionId}.jsonl`), 'utf8');
    assert.ok(!raw.includes(envKey), 'the environment key is not in the file');
    assert.ok(!raw.includes(configKey), 'the config key is not in the file');
    assert.match(raw, /\[redacted\]/);
    const lines = raw.trim().split('\n').map((l) => JSON.parse(l) as { type: string; message?: { role: string } });
    assert.deepEqual(
      lines.filter((l) => l.type === 'message').map((l) => l.message!.role),
      ['user', 'assistant', 'tool', 'assistant'],
      'the messages were saved',
    );
  });

  it('a proposed change whose contents hold a secret is not saved, and attach names it', async () => {
    const key = 'env-secret-value-55aa66bb';
    const cwd = makeWorkspace({}, t.stub.origin);
    const env = testEnv({ DEPLOY_TOKEN: key });
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'plain.txt', content: 'plain\n' } }, { name: 'write_file', arguments: { path: 'settings.txt', content: `TOKEN=${key}\n` } }] },
      { text: 'wrote both' },
    );
    const rt1 = await t.start(cwd, { env });
    await promptAndWait(rt1, 'write the files');
    const { sessionId, pendingBatch } = await rt1.request('getState', {});
    assert.deepEqual(pendingBatch?.changes.map((c) => c.path).sort(), ['plain.txt', 'settings.txt']);
    await rt1.close();
    assert.ok(!fs.readFileSync(path.join(sessionsDir(env), `${sessionId}.jsonl`), 'utf8').includes(key));
    const rt2 = await t.start(cwd, { env });
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached, JSON.stringify(attached));
    assert.deepEqual(attached.unsavedChanges, ['settings.txt']);
    assert.deepEqual(attached.pendingBatch?.changes.map((c) => c.path), ['plain.txt']);
  });
});
