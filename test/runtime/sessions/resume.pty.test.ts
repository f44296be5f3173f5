import assert from 'node:assert/strict';
import { useTmuxSession } from '../cli/interactive/tmux-terminal';

/** The main prompt at the start of a line (tmux drops trailing spaces from captured lines). */
const PROMPT = /^›( |$)/m;

describe('/resume in the interactive session (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);

  it('/resume lists this folder\'s saved sessions and /resume <n> continues one: the next request carries its messages', async () => {
    const t = s.open([], { 'a.txt': 'alpha\n' }, { NO_COLOR: '1' });
    await t.waitFor(PROMPT);
    s.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'alpha it says' });
    t.line('read a.txt');
    await t.waitFor(/alpha it says/);
    await t.waitFor(PROMPT, { count: 2 });
    t.line('/reset');
    await t.waitFor(/new conversation started/);
    t.line('/resume');
    const listed = await t.waitFor(/Continue one with \/resume <number> or \/resume <id>/);
    assert.match(listed, /1\. session_[0-9a-z]+ .* 4 msgs\n\s+read a\.txt/);
    t.line('/resume 1');
    await t.waitFor(/resumed session session_[0-9a-z]+ \(4 message\(s\)\)/);
    assert.match(t.screen(), /last prompt: read a\.txt/);
    s.stub.enqueue({ text: 'yes, alpha' });
    t.line('still?');
    await t.waitFor(/yes, alpha/);
    const sent = s.stub.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!.body.messages as Array<{ role: string }>;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    t.line('/resume session_0123456789ab');
    await t.waitFor(/✗ no saved session "session_0123456789ab"/);
    t.line('/exit');
    await t.waitFor(/__EXIT 0__/);
  });

  it('/compact summarises the conversation; the next request sends the summary; nothing new is not compacted again', async () => {
    const t = s.open([], {}, { NO_COLOR: '1' });
    await t.waitFor(PROMPT);
    s.stub.enqueue({ text: 'first answer' });
    t.line('first question');
    await t.waitFor(/first answer/);
    s.stub.enqueue({ text: 'SUMMARY: one question, one answer.' });
    t.line('/compact');
    await t.waitFor(/✓ conversation compacted: about \d+ → \d+ tokens/);
    t.line('/compact');
    await t.waitFor(/nothing to compact yet/);
    s.stub.enqueue({ text: 'second answer' });
    t.line('second question');
    await t.waitFor(/second answer/);
    const chats = s.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(chats.length, 3, 'the answer, the summary, the next answer');
    const sent = chats[2]!.body.messages as Array<{ role: string; content: string }>;
    assert.deepEqual(sent.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.match(sent[1]!.content, /SUMMARY: one question, one answer\./);
    t.line('/exit');
    await t.waitFor(/__EXIT 0__/);
  });
});
