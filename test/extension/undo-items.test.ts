import assert from 'node:assert/strict';
import { undoPick, undoSummary, whyNotUndoable } from '../../src/extension/changes/undo-items';
import type { AppliedBatch } from '../../src/protocol/undo';

describe('undo items (the editor pick and summary)', () => {
  const batch: AppliedBatch = {
    batchId: 'chg_1',
    runId: 'run_1',
    appliedAt: '2026-01-01T00:00:00.000Z',
    undoable: true,
    files: [
      { changeId: 'c1', path: 'src/a.ts', kind: 'modify', state: 'undoable' },
      { changeId: 'c2', path: 'new.txt', kind: 'create', state: 'undoable' },
      { changeId: 'c3', path: 'old.txt', kind: 'delete', state: 'undoable' },
      { changeId: 'c4', path: 'done.txt', kind: 'modify', state: 'undone' },
      { changeId: 'c5', path: 'app.env', kind: 'modify', state: 'not_undoable', reason: 'app.env holds a secret' },
    ],
  };

  it('offers only the undoable files, all ticked, says what undoing does and counts the files that cannot be undone', () => {
    const pick = undoPick(batch);
    assert.deepEqual(pick.items.map((i) => [i.label, i.description, i.detail, i.picked]), [
      ['src/a.ts', 'modified', 'Undo: src/a.ts gets its earlier content back', true],
      ['new.txt', 'created', 'Undo: new.txt will be deleted', true],
      ['old.txt', 'deleted', 'Undo: old.txt will be re-created', true],
    ]);
    assert.equal(pick.title, 'Undo applied changes (3 files; 1 other file cannot be undone)');
    assert.match(pick.placeHolder, /Enter undoes the ticked ones/);
  });

  it('sums up: all back, or which files were kept and why', () => {
    assert.deepEqual(undoSummary([{ changeId: 'c1', path: 'a.txt', status: 'reverted' }]), { text: 'Undid the changes to 1 file.', problems: false });
    const mixed = undoSummary([
      { changeId: 'c1', path: 'a.txt', status: 'reverted' },
      { changeId: 'c2', path: 'b.txt', status: 'reverted' },
      { changeId: 'c3', path: 'c.txt', status: 'stale', reason: 'c.txt changed since it was applied — kept' },
    ]);
    assert.deepEqual(mixed, { text: 'Undid the changes to 2 files. c.txt changed since it was applied — kept.', problems: true });
    assert.equal(undoSummary([{ changeId: 'c1', path: 'a.txt', status: 'failed' }]).text, 'No file was undone. a.txt was not undone.');
  });

  it('says why a kept batch has no Undo: each file’s reason, and the files undone already', () => {
    const kept = (files: AppliedBatch['files']): AppliedBatch => ({ ...batch, undoable: false, files });
    const secret = { changeId: 'c5', path: 'app.env', kind: 'modify', state: 'not_undoable', reason: 'app.env holds a secret, so it cannot be undone' } as const;
    const big = { changeId: 'c6', path: 'big.bin', kind: 'create', state: 'not_undoable', reason: 'the batch is too large to keep whole for undo (over 16 MiB), so big.bin cannot be undone' } as const;
    const undone = { changeId: 'c4', path: 'done.txt', kind: 'modify', state: 'undone' } as const;
    assert.equal(whyNotUndoable(kept([secret])), 'No Undo: app.env holds a secret, so it cannot be undone.');
    assert.equal(whyNotUndoable(kept([big, secret])), 'No Undo: the batch is too large to keep whole for undo (over 16 MiB), so big.bin cannot be undone; app.env holds a secret, so it cannot be undone.');
    assert.equal(whyNotUndoable(kept([secret, undone])), 'No Undo: app.env holds a secret, so it cannot be undone. The other files were undone already.');
    assert.equal(whyNotUndoable(kept([undone])), 'These changes were undone already.');
    assert.equal(whyNotUndoable(kept([{ changeId: 'c7', path: 'x.txt', kind: 'modify', state: 'not_undoable' }])), 'No Undo: x.txt cannot be undone.');
  });
});
