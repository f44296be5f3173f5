import assert from 'node:assert/strict';
import { applyHunks } from '../../../src/protocol/change-hunks';
import { HunkSelectionError } from '../../../src/runtime/changes/errors';
import { chooseHunks, hunksOf } from '../../../src/runtime/changes/hunks';
import type { StoredChange } from '../../../src/runtime/changes/stored';

/** A small deterministic generator (mulberry32), so a failing case can be reproduced from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomText(next: () => number): string {
  const words = ['a', 'b', 'c', 'x', '', '  y'];
  const n = Math.floor(next() * 40);
  const breaks = next() < 0.3 ? '\r\n' : '\n';
  const lines = Array.from({ length: n }, () => words[Math.floor(next() * words.length)]!);
  return lines.join(breaks) + (next() < 0.7 && n > 0 ? breaks : '');
}

function mutate(text: string, next: () => number): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const r = next();
    if (r < 0.08) lines[i] = `changed ${i}`;
    else if (r < 0.12) lines.splice(i, 1);
    else if (r < 0.16) lines.splice(i, 0, `inserted ${i}`);
  }
  return lines.join('\n');
}

const change = (id: string, originalContent: string | null, proposedContent: string | null): StoredChange => ({
  id,
  path: `${id}.txt`,
  absolutePath: `/w/${id}.txt`,
  kind: originalContent === null ? 'create' : proposedContent === null ? 'delete' : 'modify',
  additions: 0,
  deletions: 0,
  revision: 1,
  originalBytes: null,
  proposedBytes: null,
  originalContent,
  proposedContent,
});

const TEN = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const TWO_HUNKS = TEN.replace('line 2\n', 'LINE 2\n').replace('line 18\n', 'LINE 18\nextra\n');

describe('runtime change hunks', () => {
  it('splits a change into hunks with 3 lines of context; none for a create or a delete', () => {
    assert.deepEqual(hunksOf(change('m', TEN, TWO_HUNKS)), [
      { oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 },
      { oldStart: 15, oldLines: 6, newStart: 15, newLines: 7 },
    ]);
    assert.deepEqual(hunksOf(change('c', null, 'x\n')), []);
    assert.deepEqual(hunksOf(change('d', 'x\n', null)), []);
  });

  it('all hunks rebuild the proposal and none the original, for 400 random edits (CRLF, no last break, empty files)', () => {
    for (let seed = 1; seed <= 400; seed++) {
      const next = random(seed);
      const original = randomText(next);
      const proposed = next() < 0.1 ? randomText(next) : mutate(original, next);
      const hunks = hunksOf(change('r', original, proposed));
      assert.equal(applyHunks(original, proposed, hunks, () => true).content, proposed, `seed ${seed}: all hunks`);
      assert.equal(applyHunks(original, proposed, hunks, () => false).content, original, `seed ${seed}: no hunk`);
      // Applying one hunk at a time, in any subset, equals applying them in order: check every other hunk too.
      const some = applyHunks(original, proposed, hunks, (i) => i % 2 === 0).content;
      const back = hunksOf(change('r2', some, proposed));
      assert.equal(applyHunks(some, proposed, back, () => true).content, proposed, `seed ${seed}: the rest still applies`);
    }
  });

  it('chooses hunks for accepted modified files and names what is wrong with a bad selection', () => {
    const changes = [change('m', TEN, TWO_HUNKS), change('c', null, 'new\n'), change('other', 'a\n', 'b\n')];
    const accepted = new Set(['m', 'c']);
    const chosen = chooseHunks(changes, accepted, { m: [1] }).get('m');
    assert.deepEqual(chosen?.applied, [1]);
    assert.equal(chosen?.total, 2);
    assert.equal(chosen?.content, TEN.replace('line 18\n', 'LINE 18\nextra\n'));
    const bad = (selection: Record<string, number[]>, pattern: RegExp) =>
      assert.throws(() => chooseHunks(changes, accepted, selection), (e: Error) => e instanceof HunkSelectionError && pattern.test(e.message));
    bad({ nope: [0] }, /^hunks\.nope: no change nope in this batch \(its ids: m, c, other\)/);
    bad({ m: [2] }, /^hunks\.m: m\.txt has 2 hunk\(s\), numbered 0 to 1; there is no hunk 2/);
    bad({ c: [0] }, /^hunks\.c: c\.txt is created whole; accept or reject the file, not hunks/);
    bad({ other: [0] }, /^hunks\.other: other\.txt is not accepted by this decision/);
  });
});
