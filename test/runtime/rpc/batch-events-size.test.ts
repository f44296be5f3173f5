/**
 * Change batch events stay in proportion to the batch's file count, not its file sizes: each `change_batch_updated`
 * carries only the entry it touched and `change_batch_ready` the summaries, so the event bytes of a batch of N files
 * of S bytes are O(N) whatever S is. The contents come exactly from `getChangeContents`, and a decided batch has none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RpcErrorCode } from '../../../src/protocol/errors';
import type { AgentEvent } from '../../../src/protocol/events';
import { makeWorkspace, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

/** `bytes` of text with escapes and multi-byte characters, different per file. */
function fileText(seed: number, bytes: number): string {
  const line = (i: number) => `${seed}:${i} é ✓ "quoted" \\ tab\there {"json": [${i}]}\n`;
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += line(i);
  return out.slice(0, bytes);
}

const batchEventBytes = (events: AgentEvent[]) =>
  events.filter((e) => e.type.startsWith('change_batch_')).reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e), 'utf8'), 0);

describe('runtime rpc: change batch events in proportion to the batch', () => {
  const t = useStubbedRuntime();

  /**
   * One turn proposes `count` files of about `size` bytes: the first `edited` exist and get a one-line edit (the model
   * sends little), the others are written whole. The next turn answers.
   */
  async function proposeBatch(count: number, size: number, edited: number): Promise<{ rt: RuntimeUnderTest; cwd: string; proposed: Map<string, string> }> {
    const existing: Record<string, string> = {};
    const proposed = new Map<string, string>();
    const calls = [];
    for (let i = 0; i < count; i++) {
      const rel = `src/f${i}.txt`;
      if (i < edited) {
        const original = fileText(1000 + i, size);
        const firstLine = original.slice(0, original.indexOf('\n') + 1);
        existing[rel] = original;
        proposed.set(rel, `edited ${i}\n` + original.slice(firstLine.length));
        calls.push({ name: 'edit_file', arguments: { path: rel, old_text: firstLine, new_text: `edited ${i}\n` } });
      } else {
        proposed.set(rel, fileText(i, size));
        calls.push({ name: 'write_file', arguments: { path: rel, content: proposed.get(rel) } });
      }
    }
    const cwd = makeWorkspace(existing, t.stub.origin);
    t.stub.enqueue({ toolCalls: calls }, { text: 'wrote them' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: `write ${count} files` });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId, 60000);
    return { rt, cwd, proposed };
  }

  it('40 files of 64 KiB: event bytes stay under 64 KiB in all, and the contents fetched are exact', async function () {
    this.timeout(60000);
    const count = 40;
    const size = 64 * 1024;
    const edited = 30;
    const { rt, cwd, proposed } = await proposeBatch(count, size, edited);
    const updates = rt.events.flatMap((e) => (e.type === 'change_batch_updated' ? [e] : []));
    assert.equal(updates.length, count, 'one update per written file');
    assert.ok(updates.every((u) => u.changes.length === 1), 'each update carries only the file it touched');
    assert.deepEqual(updates.map((u) => u.fileCount), [...Array(count).keys()].map((i) => i + 1));
    const ready = await rt.waitForEvent('change_batch_ready');
    assert.equal(ready.batch.changes.length, count);
    const total = batchEventBytes(rt.events);
    // Linear in the file count and independent of the file size: at most 800 bytes per file (summary in the update
    // and in the ready event), where the contents alone would be count × size × 2.
    assert.ok(total < count * 800, `batch events took ${total} bytes for ${count} files`);
    assert.ok(total < size, `batch events took ${total} bytes, more than one file's content`);
    assert.ok(!rt.events.some((e) => JSON.stringify(e).includes('"quoted"')), 'no file content travels in an event');

    const byId = new Map(ready.batch.changes.map((c) => [c.id, c]));
    const first = ready.batch.changes[0]!;
    assert.deepEqual([first.kind, first.originalBytes, first.proposedBytes, first.revision], ['modify', Buffer.byteLength(fileText(1000, size)), Buffer.byteLength(proposed.get('src/f0.txt')!), 1]);
    const { contents, omitted } = await rt.request('getChangeContents', { batchId: ready.batch.id });
    assert.deepEqual(omitted, [], `${count} × ${size} bytes fit one answer`);
    assert.equal(contents.length, count);
    for (const [i, c] of contents.entries()) {
      const rel = `src/f${i}.txt`;
      assert.equal(c.path, rel);
      assert.equal(c.proposedContent, proposed.get(rel), `${rel}: proposed content differs`);
      assert.equal(c.originalContent, i < edited ? fileText(1000 + i, size) : null, `${rel}: original content differs`);
      assert.equal(c.revision, byId.get(c.changeId)?.revision);
    }
    const some = await rt.request('getChangeContents', { batchId: ready.batch.id, changeIds: [first.id] });
    assert.deepEqual(some.contents.map((c) => c.changeId), [first.id]);
    // Nothing was written before the decision; after it, a decided batch keeps no contents.
    assert.equal(readFileSync(path.join(cwd, 'src/f0.txt'), 'utf8'), fileText(1000, size));
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.equal(readFileSync(path.join(cwd, 'src/f39.txt'), 'utf8'), proposed.get('src/f39.txt'));
    await assert.rejects(rt.request('getChangeContents', { batchId: ready.batch.id }), (e: { code: number; message: string }) => {
      assert.equal(e.code, RpcErrorCode.UnknownId);
      assert.match(e.message, /decided batches keep no contents/);
      return true;
    });
  });

  it('the event bytes of a batch do not grow with the file size', async function () {
    this.timeout(60000);
    const small = await proposeBatch(8, 1024, 6);
    const smallBytes = batchEventBytes(small.rt.events);
    await small.rt.close();
    const large = await proposeBatch(8, 256 * 1024, 6);
    const largeBytes = batchEventBytes(large.rt.events);
    // Only the digits of the sizes and line counts differ.
    assert.ok(largeBytes < smallBytes + 8 * 64, `8 files: ${smallBytes} bytes of batch events at 1 KiB, ${largeBytes} at 256 KiB`);
  });

  it('an edit of a file already in the batch sends that one entry with a new revision; its old contents are replaced', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A\n' }, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'first\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'second\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }] },
      { text: 'done' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'edit twice' });
    await rt.waitForEvent('agent_end');
    const updates = rt.events.flatMap((e) => (e.type === 'change_batch_updated' ? [e] : []));
    assert.deepEqual(updates.map((u) => u.changes.map((c) => `${c.path}@${c.revision}`)), [['a.txt@1'], ['b.txt@1'], ['a.txt@2']], 'rewriting what is proposed sends nothing');
    const ready = await rt.waitForEvent('change_batch_ready');
    const a = ready.batch.changes.find((c) => c.path === 'a.txt')!;
    const { contents } = await rt.request('getChangeContents', { batchId: ready.batch.id, changeIds: [a.id] });
    assert.deepEqual(contents, [
      { changeId: a.id, path: 'a.txt', revision: 2, originalContent: 'A\n', proposedContent: 'second\n', hunks: [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1 }] },
    ]);
    await assert.rejects(rt.request('getChangeContents', { batchId: ready.batch.id, changeIds: ['chg_nope'] }), /unknown change id chg_nope/);
    const state = await rt.request('getState', {});
    assert.equal(JSON.stringify(state).includes('second'), false, 'getState carries summaries only');
  });
});
