import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { useTmuxSession } from './tmux-terminal';

/** The main prompt at the start of a line (tmux drops trailing spaces from captured lines). */
const PROMPT = /^›( |$)/m;

describe('agentcli interactive /undo (in a pseudo-terminal)', function () {
  const s = useTmuxSession(this);

  it('/undo reverts the last accepted batch file by file, keeps a file edited since, and says when there is nothing left', async () => {
    const t = s.open([], { 'a.txt': 'old a\n', 'b.txt': 'old b\n' }, { NO_COLOR: '1' });
    await t.waitFor(PROMPT);
    t.line('/undo');
    await t.waitFor(/cannot undo: nothing to undo/);
    s.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'new a\n' } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'new b\n' } },
          { name: 'write_file', arguments: { path: 'c.txt', content: 'made\n' } },
        ],
      },
      { text: 'edited three files' },
    );
    t.line('edit files');
    await t.waitFor(/\[a\]ccept all \/ \[r\]eject all \/ \[p\]ick files ›$/);
    t.line('a');
    await t.waitFor(/✓ applied +c\.txt/);
    writeFileSync(path.join(s.cwd, 'b.txt'), 'b edited by hand\n');

    t.line('/undo');
    await t.waitFor(/left as they are/);
    const screen = t.screen();
    assert.match(screen, /Undo of change batch chg_\w+:\n +✓ reverted a\.txt\n +! kept +b\.txt changed since it was applied — kept\n +✓ reverted c\.txt\n +2 file\(s\) reverted, 1 left as they are/);
    assert.equal(readFileSync(path.join(s.cwd, 'a.txt'), 'utf8'), 'old a\n');
    assert.equal(readFileSync(path.join(s.cwd, 'b.txt'), 'utf8'), 'b edited by hand\n');
    assert.equal(existsSync(path.join(s.cwd, 'c.txt')), false);

    t.line('/undo a.txt');
    await t.waitFor(/cannot undo: the chosen files of change batch chg_\w+ were already undone/);
    t.line('/help');
    await t.waitFor(/\/undo \[path \.\.\.\] +revert the last applied file changes/);
  });
});
