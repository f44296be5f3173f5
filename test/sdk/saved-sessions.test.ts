import assert from 'node:assert/strict';
import { Agent, RuntimeClient, SessionAttachError } from '../../src/sdk';
import { BUILT_CLI, makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

describe('sdk: saved sessions (getHistory, getSession, attachSession, Agent.create({ sessionId }))', function () {
  const t = useStubAndAgent(this);

  it('a second agent lists, reads and resumes the first one\'s session; the next prompt carries its history', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'alpha\n' }, t.stub.origin);
    const options = testAgentOptions(cwd);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'alpha it is' });
    const first = await Agent.create(options);
    await first.run('read a.txt');
    const { sessionId } = await first.getState();
    await first.close();

    const client = t.closeAfter(new RuntimeClient({ cwd, cliPath: BUILT_CLI, env: options.env }));
    await client.start();
    const history = await client.getHistory();
    assert.deepEqual(history.entries.map((e) => [e.sessionId, e.title, e.messageCount]), [[sessionId, 'read a.txt', 4]]);
    const details = await client.getSession({ sessionId });
    assert.deepEqual(details.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant']);
    await client.stop();

    const resumed = await t.create({ ...options, sessionId });
    assert.equal((await resumed.getState()).sessionId, sessionId);
    assert.equal((await resumed.getHistory({ pageSize: 5 })).total, 1);
    t.stub.enqueue({ text: 'still alpha' });
    await resumed.run('and now?');
    const sent = t.stub.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    assert.match(sent[3]!.content, /alpha/);
  });

  it('Agent.create({ sessionId }) rejects with SessionAttachError naming the reason, and attachSession answers typed failures', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const options = testAgentOptions(cwd);
    await assert.rejects(Agent.create({ ...options, sessionId: 'session_0123456789ab' }), (e: unknown) => {
      assert.ok(e instanceof SessionAttachError);
      assert.equal(e.reason, 'not_found');
      return true;
    });
    const agent = await t.create(options);
    const r = await agent.attachSession('../../etc/passwd');
    assert.deepEqual([r.attached, !r.attached && r.reason], [false, 'not_found']);
    await assert.rejects(Agent.create({ ...options, sessionId: '' }), /sessionId/);
  });
});
