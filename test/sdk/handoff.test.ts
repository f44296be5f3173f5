import assert from 'node:assert/strict';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

describe('sdk browser handoff', function () {
  const t = useStubAndAgent(this);

  it('an Agent creates a handoff, and a second Agent of the same user takes the session over with its token', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const first = testAgentOptions(cwd);
    t.stub.enqueue({ text: 'noted' });
    const terminal = await t.create(first);
    await terminal.run('note the colour teal');
    const handoff = await terminal.createBrowserHandoff({ ttlSeconds: 120 });
    assert.match(handoff.url, /^http:\/\/127\.0\.0\.1:\d+\/#token=/);
    assert.ok(Date.parse(handoff.expiresAt) - Date.now() <= 120_000);

    // Same HOME: the same user's records.
    const editor = await t.create({ ...testAgentOptions(cwd), env: first.env });
    const refused = await editor.attachBrowserHandoff({ token: 'not-a-token' });
    assert.equal(refused.attached, false);
    assert.equal(!refused.attached && refused.reason, 'unknown');
    const taken = await editor.attachBrowserHandoff({ token: handoff.token });
    assert.deepEqual(taken, { attached: true, sessionId: handoff.sessionId, messageCount: 2 });
    const latest = await editor.attachLatestBrowserHandoff();
    assert.equal(!latest.attached && latest.reason, 'unknown', 'no other handoff is left');
  });
});
