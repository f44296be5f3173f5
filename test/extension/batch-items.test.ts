import assert from 'node:assert/strict';
import type { ChangeBatch } from '../../src/protocol/records';
import { batchSummary, changePickItems, hasProblems, lineCounts, rejectAllQuestion, resultLines, resultSummary } from '../../src/extension/changes/batch-items';

const batch: ChangeBatch = {
  id: 'b1',
  runId: 'r1',
  status: 'pending',
  changes: [
    { id: 'c1', path: 'src/new.ts', absolutePath: '/w/src/new.ts', kind: 'create', additions: 2, deletions: 0, revision: 1, originalBytes: null, proposedBytes: 4 },
    { id: 'c2', path: 'notes.txt', absolutePath: '/w/notes.txt', kind: 'modify', additions: 1, deletions: 1, revision: 1, originalBytes: 2, proposedBytes: 2 },
    { id: 'c3', path: 'old.txt', absolutePath: '/w/old.txt', kind: 'delete', additions: 0, deletions: 3, revision: 1, originalBytes: 6, proposedBytes: null },
  ],
};

describe('extension change batch items', () => {
  it('makes one quick pick item per change, in order, with kind and line counts', () => {
    const items = changePickItems(batch);
    assert.deepEqual(items.map((i) => i.changeId), ['c1', 'c2', 'c3']);
    assert.equal(items[0]!.label, '$(diff-added) src/new.ts');
    assert.equal(items[1]!.description, 'modify · +1 −1');
    assert.equal(items[2]!.label, '$(diff-removed) old.txt');
    assert.ok(items.every((i) => i.picked), 'every file starts ticked: Enter applies the whole batch');
  });

  it('leaves the files already rejected unticked', () => {
    assert.deepEqual(changePickItems(batch, ['c2']).map((i) => i.picked), [true, false, true]);
  });

  it('asks before rejecting everything when nothing is ticked, naming the count', () => {
    assert.equal(rejectAllQuestion(batch), 'No file is ticked. Reject all 3 files?');
    assert.equal(rejectAllQuestion({ ...batch, changes: [batch.changes[0]!] }), 'No file is ticked. Reject the 1 proposed file?');
  });

  it('sums the batch', () => {
    assert.deepEqual(batchSummary(batch), { files: 3, additions: 3, deletions: 4, text: '3 files changed, +3 −4' });
    assert.equal(batchSummary({ ...batch, changes: [batch.changes[0]!] }).text, '1 file changed, +2 −0');
    assert.equal(lineCounts({ additions: 10, deletions: 0 }), '+10 −0');
  });

  it('describes per-file results, worst first, and flags stale or failed files', () => {
    const results = [
      { changeId: 'c1', path: 'src/new.ts', status: 'applied' as const },
      { changeId: 'c2', path: 'notes.txt', status: 'stale' as const },
      { changeId: 'c3', path: 'old.txt', status: 'rejected' as const },
    ];
    assert.equal(resultSummary(results), 'Skipped 1 file (changed on disk), applied 1, rejected 1.');
    assert.equal(resultSummary([results[0]!, results[2]!]), 'Applied 1 file, rejected 1.');
    assert.equal(resultSummary([results[2]!, { ...results[2]!, changeId: 'c4' }]), 'Rejected 2 files.');
    assert.equal(resultSummary([{ changeId: 'c', path: 'p', status: 'failed', error: 'EACCES' }, results[0]!]), 'Could not apply 1 file, applied 1.');
    assert.deepEqual(resultLines(results), ['src/new.ts: applied', 'notes.txt: not applied: changed on disk since the proposal', 'old.txt: rejected']);
    assert.equal(hasProblems(results), true);
    assert.equal(hasProblems([results[0]!, results[2]!]), false);
    assert.equal(resultLines([{ changeId: 'c', path: 'p', status: 'failed', error: 'EACCES' }])[0], 'p: failed (EACCES)');
    assert.equal(resultSummary([]), 'Nothing to apply.');
    const partly = { changeId: 'c5', path: 'hunks.txt', status: 'applied' as const, hunks: { applied: [0], total: 2 } };
    assert.equal(resultSummary([partly, results[2]!]), 'Applied 1 file, rejected 1. In part: hunks.txt: 1 of 2 hunks.');
    assert.deepEqual(resultLines([partly]), ['hunks.txt: applied (1 of 2 hunks)']);
    assert.deepEqual(resultLines([{ ...partly, hunks: { applied: [0, 1], total: 2 } }]), ['hunks.txt: applied'], 'every hunk: the whole file');
  });
});
