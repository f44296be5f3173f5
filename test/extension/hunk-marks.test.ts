import assert from 'node:assert/strict';
import { HunkMarks } from '../../src/extension/changes/hunk-marks';
import type { ChangeBatch, ChangeContents } from '../../src/protocol/records';

const ORIGINAL = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const PROPOSED = ORIGINAL.replace('line 2\n', 'LINE 2\n').replace('line 18\n', 'LINE 18\nextra\n');
// The runtime's hunks of this edit (3 lines of context): lines 1-5 and 15-20 (15-21 on the proposed side).
const contents: ChangeContents = {
  changeId: 'c1',
  path: 'notes.txt',
  revision: 1,
  originalContent: ORIGINAL,
  proposedContent: PROPOSED,
  hunks: [
    { oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 },
    { oldStart: 15, oldLines: 6, newStart: 15, newLines: 7 },
  ],
};
const summary = (id: string, revision = 1) => ({
  id, path: `${id}.txt`, absolutePath: `/w/${id}.txt`, kind: 'modify' as const, additions: 2, deletions: 2, revision, originalBytes: 1, proposedBytes: 1,
});
const batch = (id: string, revision = 1): ChangeBatch => ({ id, runId: 'r', status: 'pending', changes: [summary('c1', revision), summary('c2')] });
const held = new Map([['c1', contents], ['c2', { ...contents, changeId: 'c2' }]]);

describe('extension per-hunk marks', () => {
  it('shows the proposed side with rejected hunks left out and finds the hunk at a line on either side', () => {
    const marks = new HunkMarks();
    marks.follow(batch('b1'));
    assert.equal(marks.shown(contents)?.content, PROPOSED);
    assert.equal(marks.hunkAt(contents, 'proposed', 1), 0);
    assert.equal(marks.hunkAt(contents, 'proposed', 17), 1);
    assert.equal(marks.hunkAt(contents, 'proposed', 9), 0, 'between hunks: the nearest one');
    assert.equal(marks.hunkAt(contents, 'original', 16), 1);
    assert.equal(marks.mark('c1', 1, 0, false), true);
    assert.equal(marks.mark('c1', 1, 0, false), false, 'already rejected');
    const shown = marks.shown(contents)!;
    assert.equal(shown.content, ORIGINAL.replace('line 18\n', 'LINE 18\nextra\n'));
    assert.deepEqual(shown.starts, [0, 14]);
    assert.equal(marks.hunkAt(contents, 'proposed', 18), 1);
    assert.equal(marks.hasRejected('c1'), true);
  });

  it('sends the kept hunks of accepted files only, and tallies them for the panel', () => {
    const marks = new HunkMarks();
    marks.follow(batch('b1'));
    assert.equal(marks.selection(new Set(['c1', 'c2']), held), undefined, 'nothing rejected: whole files');
    marks.mark('c1', 1, 1, false);
    assert.deepEqual(marks.selection(new Set(['c1', 'c2']), held), { c1: [0] });
    assert.equal(marks.selection(new Set(['c2']), held), undefined, 'a file not accepted sends no hunks');
    assert.deepEqual(marks.tallies(held), [{ changeId: 'c1', kept: 1, total: 2 }]);
    marks.mark('c1', 1, 0, false);
    assert.deepEqual(marks.selection(new Set(['c1']), held), { c1: [] }, 'every hunk rejected: the file is rejected');
    marks.mark('c1', 1, 0, true);
    marks.mark('c1', 1, 1, true);
    assert.equal(marks.any, false, 'kept again: no marks left');
    marks.mark('c1', 1, 1, false);
    assert.throws(() => marks.selection(new Set(['c1']), new Map()), /hunks of change c1 are no longer loaded; open its diff again/);
  });

  it('drops marks when the batch changes or a change gets a new revision (its hunks changed)', () => {
    const marks = new HunkMarks();
    marks.follow(batch('b1'));
    marks.mark('c1', 1, 0, false);
    marks.mark('c2', 1, 0, false);
    marks.follow(batch('b1', 2));
    assert.equal(marks.hasRejected('c1'), false, 'c1 moved on to revision 2');
    assert.equal(marks.hasRejected('c2'), true);
    marks.follow(batch('b2'));
    assert.equal(marks.any, false);
    marks.mark('c2', 1, 0, false);
    marks.follow(undefined);
    assert.equal(marks.any, false);
  });
});
