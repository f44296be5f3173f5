import assert from 'node:assert/strict';
import { extractMentions } from '../../webview-ui/src/model/mentions';
import { readSnapshot } from '../../webview-ui/src/model/contract';
import { buildSnapshot } from '../../webview-ui/src/model/persist';
import type { TranscriptItem } from '../../src/shared/chat/transcriptItems';

function session(n: number): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (let i = 0; i < n; i++) {
    items.push(i % 2 === 0
      ? { kind: 'user', id: `user:${i}`, text: `question ${i}`, context: [] }
      : { kind: 'assistant', id: `msg:${i}`, messageId: `${i}`, runId: `r${i}`, text: `answer ${i} `.repeat(20), streaming: false });
  }
  return items;
}

describe('webview state snapshot', () => {
  it('keeps the newest items within the size bound', () => {
    const items = session(2000);
    const snap = buildSnapshot(items, 'draft text', [{ id: 'c', kind: 'file', path: 'a.ts' }], 50_000);
    assert.ok(JSON.stringify(snap).length <= 50_000);
    assert.equal(snap.truncated, true);
    assert.ok(snap.items.length > 10);
    assert.equal(snap.items.at(-1)?.id, items.at(-1)?.id, 'the newest item is kept');
    assert.equal(snap.draft, 'draft text');
  });

  it('keeps a short session whole and round-trips through validation', () => {
    const items = session(6);
    const snap = buildSnapshot(items, '', []);
    assert.equal(snap.truncated, false);
    assert.deepEqual(readSnapshot(JSON.parse(JSON.stringify(snap)))?.items, items);
  });

  it('cuts long tool output in the snapshot only', () => {
    const tool: TranscriptItem = { kind: 'tool', id: 'tool:1', toolCallId: '1', runId: 'r', toolName: 'bash', argsSummary: 'ls', output: 'y'.repeat(10_000), outputTruncated: false, status: 'success' };
    const snap = buildSnapshot([tool], '', []);
    const saved = snap.items[0];
    assert.ok(saved?.kind === 'tool' && saved.output.length === 2000 && saved.outputTruncated);
    assert.equal(tool.output.length, 10_000, 'the live item is untouched');
  });

  it('ignores a damaged or foreign snapshot', () => {
    assert.equal(readSnapshot(undefined), undefined);
    assert.equal(readSnapshot({ v: 99, items: [], draft: '', context: [], truncated: false }), undefined);
    assert.equal(readSnapshot({ v: 1, items: [{ kind: 'nope' }], draft: '', context: [], truncated: false }), undefined);
  });
});

describe('prompt mentions', () => {
  it('finds @path mentions and drops trailing punctuation', () => {
    assert.deepEqual(extractMentions('look at @src/a.ts, and @docs/readme.md.'), ['src/a.ts', 'docs/readme.md']);
    assert.deepEqual(extractMentions('mail me@example.com or `@x`'), []);
    assert.deepEqual(extractMentions('@a.ts @a.ts'), ['a.ts']);
    assert.deepEqual(extractMentions('@ alone'), []);
  });
});
