import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Runner, RunnerError, Session, SessionFileError, defineAgent } from '../../src/sdk';
import { makeTempDir } from '../helpers/temp-dir';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

type Sent = Array<{ role: string; content: string | null; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;

describe('sdk: Session and Runner (spec 001 §2.4)', function () {
  const t = useStubAndAgent(this);

  function reviewer(cwd: string) {
    const { cwd: _c, ...options } = testAgentOptions(cwd);
    return defineAgent({ name: 'reviewer', instructions: 'You review code tersely.', cwd, ...options });
  }

  it('a session built by hand is the conversation the model sees; the result records the run', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    const session = new Session().addUserMessage('my name is Ada').addAssistantMessage('Hello Ada.');
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'Ada, the file says alpha.' });

    const result = await Runner.run(reviewer(cwd), 'what does a.txt say?', { session });

    assert.equal(result.finalOutput, 'Ada, the file says alpha.');
    assert.equal(result.status, 'completed');
    const first = t.stub.requests[0]!.body.messages as Sent;
    assert.deepEqual(first.map((m) => [m.role, m.content]).slice(1), [
      ['user', 'my name is Ada'],
      ['assistant', 'Hello Ada.'],
      ['user', 'what does a.txt say?'],
    ]);
    assert.equal(first[0]!.role, 'system');
    assert.match(String(first[0]!.content), /You review code tersely\./);

    // The given session is left as it was; the result's has the run's messages, tool call and result.
    assert.equal(session.messages.length, 2);
    assert.deepEqual(result.session.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    assert.match(result.session.messages[4]!.content, /alpha/);
    const [call] = result.session.toolCalls;
    assert.deepEqual([call?.name, call?.args, call?.success, result.session.toolCalls.length], ['read_file', { path: 'a.txt' }, true, 1]);
    assert.match(call?.output ?? '', /alpha/);
    assert.deepEqual(result.session.errors, []);
  });

  it('resumes a session an earlier Runner.run returned, tool calls included', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    const agent = reviewer(cwd);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'it says alpha' });
    const first = await Runner.run(agent, 'read a.txt');
    t.stub.enqueue({ text: 'I said alpha' });
    const second = await Runner.run(agent, 'what did you say?', { session: first.session });

    assert.equal(second.finalOutput, 'I said alpha');
    const sent = t.stub.requests.at(-1)!.body.messages as Sent;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    assert.equal(sent[3]!.tool_call_id, sent[2]!.tool_calls?.[0]?.id);
    assert.match(String(sent[3]!.content), /alpha/);
    assert.deepEqual(second.session.messages.map((m) => m.content).slice(-2), ['what did you say?', 'I said alpha']);
    assert.equal(second.session.toolCalls.length, 1, 'the first run\'s tool call is kept');
  });

  it('save then load gives the same session, and the loaded one resumes', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'noted' });
    const { session } = await Runner.run(reviewer(cwd), 'remember 42', { session: new Session().addUserMessage('hi').addAssistantMessage('hello') });
    const file = path.join(makeTempDir('session-file-'), 'session.json');
    session.save(file);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { version: number; messages: unknown[]; toolCalls: unknown[]; errors: unknown[] };
    assert.equal(raw.version, 1);
    assert.equal(raw.messages.length, 4);
    const loaded = Session.load(file);
    assert.deepEqual(loaded.toJSON(), session.toJSON());

    t.stub.enqueue({ text: '42' });
    const again = await Runner.run(reviewer(cwd), 'what number?', { session: loaded });
    assert.equal(again.finalOutput, '42');
    const sent = t.stub.requests.at(-1)!.body.messages as Sent;
    assert.deepEqual(sent.slice(1).map((m) => m.content), ['hi', 'hello', 'remember 42', 'noted', 'what number?']);
  });

  it('Session.load names the path and the problem of a malformed file', () => {
    const dir = makeTempDir('session-bad-');
    const missing = path.join(dir, 'none.json');
    assert.throws(() => Session.load(missing), (e: unknown) => e instanceof SessionFileError && e.path === missing && /no such file/.test(e.message));
    const notJson = path.join(dir, 'a.json');
    writeFileSync(notJson, '{ nope');
    assert.throws(() => Session.load(notJson), new RegExp(`${notJson.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not JSON`));
    const badRole = path.join(dir, 'b.json');
    writeFileSync(badRole, JSON.stringify({ version: 1, messages: [{ role: 'robot', content: 'x' }], toolCalls: [], errors: [] }));
    assert.throws(() => Session.load(badRole), (e: unknown) => e instanceof SessionFileError && e.message.includes(badRole) && /messages\.0\.role/.test(e.message));
    const oldVersion = path.join(dir, 'c.json');
    writeFileSync(oldVersion, JSON.stringify({ version: 7, messages: [], toolCalls: [], errors: [] }));
    assert.throws(() => Session.load(oldVersion), /expected version 1/);
  });

  it('a failed run rejects with RunnerError whose session records the error', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ status: 400, errorBody: { error: { message: 'bad request from stub' } } });
    await assert.rejects(Runner.run(reviewer(cwd), 'hello'), (e: unknown) => {
      assert.ok(e instanceof RunnerError);
      assert.equal(e.agentName, 'reviewer');
      assert.ok(e.session.errors.length > 0);
      assert.match(JSON.stringify(e.session.errors), /bad request from stub/);
      assert.deepEqual(e.session.messages.map((m) => m.role).slice(0, 1), ['user']);
      return true;
    });
  });

  it('the runtime refuses prompt history that breaks the conversation, or on a conversation that has messages', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd));
    const orphan = [{ role: 'tool' as const, content: 'x', toolCallId: 'call_1' }];
    await assert.rejects(agent.run('go', { history: orphan }), /history\[0\].*call_1/);
    const unanswered = [{ role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] }, { role: 'user' as const, content: 'hm' }];
    await assert.rejects(agent.run('go', { history: unanswered }), /history\[1\].*c1/);
    assert.equal((await agent.getMessages()).messages.length, 0, 'a refused history changes nothing');
    t.stub.enqueue({ text: 'one' });
    await agent.run('first');
    await assert.rejects(agent.run('go', { history: [{ role: 'user', content: 'earlier' }] }), /already has 2 message\(s\): call reset/);
  });

  it('bad arguments are refused with what to fix', async () => {
    assert.throws(() => defineAgent({ name: '', instructions: 'x' }), InvalidArgumentError);
    assert.throws(() => new Session().addUserMessage(''), /user message must be a non-empty string/);
    const cwd = makeWorkspace({}, t.stub.origin);
    await assert.rejects(Runner.run(reviewer(cwd), '  '), /prompt must be a non-empty string/);
    await assert.rejects(Runner.run(reviewer(cwd), 'x', { session: { messages: [] } as unknown as Session }), /session must be a Session/);
  });
});
