import assert from 'node:assert/strict';
import { applyHunks } from '../../src/protocol/change-hunks';
import { methods } from '../../src/protocol/methods';
import { ChangeContents, ChangeResult, HunkSelection } from '../../src/protocol/records';

const decideParams = methods.decideChanges.params;

describe('protocol: per-hunk decisions', () => {
  it('applies only the chosen hunks, line for line, and says where each hunk begins', () => {
    const original = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const proposed = 'A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n';
    // Hand-written hunks (what a 0-context diff would give): line 1 replaced, line 10 replaced by two lines.
    const hunks = [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      { oldStart: 10, oldLines: 1, newStart: 10, newLines: 2 },
    ];
    assert.equal(applyHunks(original, proposed, hunks, () => true).content, proposed);
    assert.equal(applyHunks(original, proposed, hunks, () => false).content, original);
    const first = applyHunks(original, proposed, hunks, (i) => i === 0);
    assert.equal(first.content, 'A\nb\nc\nd\ne\nf\ng\nh\ni\nj\n');
    assert.deepEqual(first.starts, [0, 9]);
    const second = applyHunks(original, proposed, hunks, (i) => i === 1);
    assert.equal(second.content, 'a\nb\nc\nd\ne\nf\ng\nh\ni\nJ\nk\n');
  });

  it('keeps CRLF line breaks and a last line without one exactly', () => {
    const original = 'one\r\ntwo\r\nthree';
    const proposed = 'ONE\r\ntwo\r\nTHREE';
    const hunks = [
      { oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 },
      { oldStart: 3, oldLines: 1, newStart: 3, newLines: 1 },
    ];
    assert.equal(applyHunks(original, proposed, hunks, (i) => i === 1).content, 'one\r\ntwo\r\nTHREE');
    assert.equal(applyHunks(original, proposed, hunks, (i) => i === 0).content, 'ONE\r\ntwo\r\nthree');
  });

  it('refuses hunks that do not fit the contents (overlapping, past the end)', () => {
    const overlapping = [
      { oldStart: 1, oldLines: 2, newStart: 1, newLines: 2 },
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1 },
    ];
    assert.throws(() => applyHunks('a\nb\n', 'x\ny\n', overlapping, () => true), /hunk 1 .* does not fit/);
    assert.throws(() => applyHunks('a\n', 'b\n', [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 1 }], () => true), /hunk 0/);
  });

  it('getChangeContents carries the hunks; a result may say which hunks were applied', () => {
    const contents = { changeId: 'c', path: 'a.txt', revision: 1, originalContent: 'a\n', proposedContent: 'b\n' };
    assert.equal(ChangeContents.safeParse(contents).success, false, 'hunks are required');
    assert.equal(ChangeContents.safeParse({ ...contents, hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] }).success, true);
    assert.equal(ChangeContents.safeParse({ ...contents, hunks: [{ oldStart: -1, oldLines: 1, newStart: 1, newLines: 1 }] }).success, false);
    const result = { changeId: 'c', path: 'a.txt', status: 'applied', hunks: { applied: [0, 2], total: 3 } };
    assert.deepEqual(ChangeResult.parse(result), result);
  });

  it('decideChanges params: hunk indexes are non-negative integers, each listed once, never with reject_all', () => {
    const base = { batchId: 'b', decision: 'accept_all' as const };
    assert.equal(decideParams.safeParse({ ...base, hunks: { c1: [0, 2], c2: [] } }).success, true);
    const twice = decideParams.safeParse({ ...base, hunks: { c1: [1, 1] } });
    assert.equal(twice.success, false);
    assert.deepEqual(twice.error?.issues[0]?.path, ['hunks', 'c1']);
    assert.match(twice.error?.issues[0]?.message ?? '', /hunk 1 is listed twice/);
    assert.equal(decideParams.safeParse({ ...base, hunks: { c1: [-1] } }).success, false);
    assert.equal(decideParams.safeParse({ ...base, hunks: { c1: [0.5] } }).success, false);
    assert.equal(decideParams.safeParse({ ...base, hunks: { '': [0] } }).success, false);
    const rejectAll = decideParams.safeParse({ batchId: 'b', decision: 'reject_all', hunks: { c1: [0] } });
    assert.equal(rejectAll.success, false);
    assert.deepEqual(rejectAll.error?.issues[0]?.path, ['hunks']);
    assert.equal(HunkSelection.safeParse({ c1: [3, 0] }).success, true);
  });
});
