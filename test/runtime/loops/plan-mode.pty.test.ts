import assert from 'node:assert/strict';
import { useTmuxSession } from '../cli/interactive/tmux-terminal';

const PROMPT = /^›( |$)/m;
const MENU = /\[a\]ccept \/ \[r\]evise \/ \[l\]ater ›$/;

describe('plan mode in the interactive terminal (/plan)', function () {
  const s = useTmuxSession(this);
  const chats = () => s.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));
  const toolNames = (n: number) => (chats()[n]!.body.tools ?? []).map((x: { function: { name: string } }) => x.function.name);
  const submit = (...titles: string[]) => ({ toolCalls: [{ name: 'submit_plan', arguments: { steps: titles.map((title) => ({ title })) } }] });

  it('/plan turns plan mode on; a proposed plan is shown with [a]ccept / [r]evise; revise sends the note, accept runs it', async () => {
    const t = s.open([], {}, { NO_COLOR: '1' });
    await t.waitFor(PROMPT);
    t.line('/plan');
    await t.waitFor(/plan mode on: only read-only tools are offered/);
    s.stub.enqueue(submit('Create notes.txt'));
    t.line('add notes');
    await t.waitFor(MENU);
    assert.match(t.screen(), /Proposed plan \(1 step\):\n {2}○ 1\. Create notes\.txt/);
    assert.ok(!toolNames(0).includes('write_file') && toolNames(0).includes('submit_plan'), toolNames(0).join(','));

    s.stub.enqueue(submit('Create notes.txt', 'Mention the date'));
    t.line('r');
    await t.waitFor(/What should change\? ›$/);
    t.line('mention the date');
    await t.waitFor(/Proposed plan \(2 steps\)/);
    await t.waitFor(MENU);
    assert.equal(chats()[1]!.body.messages.at(-1).content, 'mention the date');
    assert.ok(!toolNames(1).includes('write_file'));

    s.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'notes\n' } }] },
      { text: 'created' },
      { text: 'dated' },
      { text: 'All done.' },
    );
    t.line('a');
    await t.waitFor(/All done\./);
    assert.match(t.screen(), /plan accepted: plan mode off/);
    assert.match(t.screen(), /✓ step 2\/2 done: dated/);
    assert.ok(toolNames(2).includes('write_file'), 'the accepted plan runs with every tool');
    // The run's write is reviewed as usual.
    await t.waitFor(/\[a\]ccept all/);
    t.line('a');
    await t.waitFor(/✓ applied {2}notes\.txt/);
    t.line('/exit');
    await t.waitFor(/__EXIT \d+__/);
  });
});
