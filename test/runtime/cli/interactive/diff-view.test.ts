import assert from 'node:assert/strict';
import type { StoredChange } from '../../../../src/runtime/changes';
import { colorWanted, createStyle } from '../../../../src/runtime/cli/interactive/ansi';
import { changeSummary, colorizeDiff, renderChange, renderResult } from '../../../../src/runtime/cli/interactive/diff-view';
import { hunksOf } from '../../../../src/runtime/changes/hunks';

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
const CYAN = '\u001b[36m';
const color = createStyle(true);
const plain = createStyle(false);

function change(over: Partial<StoredChange>): StoredChange {
  return {
    id: 'c1',
    path: 'src/a.ts',
    absolutePath: '/ws/src/a.ts',
    kind: 'modify',
    originalContent: 'one\ntwo\n',
    proposedContent: 'one\nTWO\n',
    additions: 1,
    deletions: 1,
    revision: 1,
    originalBytes: 8,
    proposedBytes: 8,
    ...over,
  };
}

describe('interactive diff view', () => {
  it('colors additions green, removals red and hunk headers cyan', () => {
    const out = colorizeDiff('--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n same\n-old\n+new', color);
    const lines = out.split('\n');
    assert.ok(lines[3] === ' same');
    assert.ok(lines[4]!.startsWith(RED) && lines[4]!.includes('-old'));
    assert.ok(lines[5]!.startsWith(GREEN) && lines[5]!.includes('+new'));
    assert.ok(lines[2]!.startsWith(CYAN));
    assert.ok(!lines[0]!.startsWith(RED), 'the --- file header is not a removal');
    assert.ok(!lines[1]!.startsWith(GREEN), 'the +++ file header is not an addition');
  });

  it('inside a hunk, a removed line that starts with "--" is still a removal', () => {
    const out = colorizeDiff('@@ -1 +1 @@\n--- a comment\n+++ plus', color).split('\n');
    assert.ok(out[1]!.startsWith(RED));
    assert.ok(out[2]!.startsWith(GREEN));
  });

  it('renders a file with a header naming the kind, the path and +/− counts, then its hunks', () => {
    const out = renderChange(change({}), plain);
    assert.equal(out, '── modify src/a.ts (+1 −1) ──\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n');
  });

  it('shows creates and deletes against /dev/null', () => {
    const created = renderChange(change({ kind: 'create', originalContent: null, proposedContent: 'x\n', additions: 1, deletions: 0 }), plain);
    assert.match(created, /^── create src\/a\.ts \(\+1 −0\) ──\n--- \/dev\/null\n\+\+\+ b\/src\/a\.ts\n@@ -0,0 \+1,1 @@\n\+x\n$/);
    const deleted = renderChange(change({ kind: 'delete', proposedContent: null, additions: 0, deletions: 2 }), plain);
    assert.match(deleted, /^── delete src\/a\.ts \(\+0 −2\) ──\n--- a\/src\/a\.ts\n\+\+\+ \/dev\/null\n/);
  });

  it('has no escape codes without color', () => {
    const text = renderChange(change({}), plain) + changeSummary(change({}), plain);
    assert.ok(!text.includes('\u001b'));
    assert.ok(renderChange(change({}), color).includes(GREEN));
  });

  it('numbers a file and, when it has several hunks, each hunk as file.hunk (the same hunks the runtime decides)', () => {
    const original = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const two = change({ originalContent: original, proposedContent: original.replace('line 2\n', 'TWO\n').replace('line 18\n', 'EIGHTEEN\n') });
    const text = renderChange(two, plain, 3);
    assert.match(text, /^── 3\. modify src\/a\.ts \(\+1 −1\) ──\n/);
    assert.deepEqual(text.split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,5 +1,5 @@  [3.1]', '@@ -15,6 +15,6 @@  [3.2]']);
    assert.equal(hunksOf(two).length, 2);
    assert.deepEqual(renderChange(change({}), plain, 1).split('\n').filter((l) => l.startsWith('@@')), ['@@ -1,2 +1,2 @@'], 'one hunk: no hunk name');
    assert.doesNotMatch(renderChange(two, plain), /\[|── \d/, 'no number: no names');
  });

  it('reports each decided file with its status and reason', () => {
    assert.equal(renderResult({ changeId: 'c', path: 'h', status: 'applied', hunks: { applied: [0], total: 2 } }, plain), '  ✓ applied  h (1 of 2 hunks)');
    assert.equal(renderResult({ changeId: 'c', path: 'h', status: 'rejected', hunks: { applied: [], total: 2 } }, plain), '  – rejected h');
    assert.equal(renderResult({ changeId: 'c', path: 'a', status: 'applied' }, plain), '  ✓ applied  a');
    assert.equal(renderResult({ changeId: 'c', path: 'b', status: 'rejected' }, plain), '  – rejected b');
    assert.equal(renderResult({ changeId: 'c', path: 'c', status: 'stale', error: 'c was modified' }, plain), '  ! stale    c: c was modified');
    assert.equal(renderResult({ changeId: 'c', path: 'd', status: 'failed', error: 'EACCES' }, plain), '  ✗ failed   d: EACCES');
  });

  it('wants color only on a terminal and never with NO_COLOR', () => {
    assert.equal(colorWanted({}, true), true);
    assert.equal(colorWanted({}, false), false);
    assert.equal(colorWanted({}, undefined), false);
    assert.equal(colorWanted({ NO_COLOR: '1' }, true), false);
    assert.equal(colorWanted({ NO_COLOR: '' }, true), true);
  });
});
