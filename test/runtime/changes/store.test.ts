import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BatchUpdate } from '../../../src/runtime/changes/stored';
import { UnknownIdError } from '../../../src/runtime/changes/errors';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { tempDir } from '../tools/helpers';

function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('ChangeBatchStore', () => {
  let root: string;
  let cleanup: () => void;
  let store: ChangeBatchStore;
  let counter: number;
  const abs = (rel: string) => path.join(root, rel);

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    counter = 0;
    store = new ChangeBatchStore({ root, newId: () => `id${++counter}` });
    writeFileSync(abs('a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(abs('b.txt'), 'bee\n');
  });
  afterEach(() => cleanup());

  it('records create, modify and delete without touching disk, with line counts', async () => {
    store.beginRun('run1');
    const modify = await store.propose(abs('a.txt'), 'one\nTWO\nthree\nfour\n');
    const create = await store.propose(abs('dir/new.txt'), 'x\ny\n');
    const del = await store.propose(abs('b.txt'), null);
    assert.deepEqual([modify.kind, create.kind, del.kind], ['modify', 'create', 'delete']);
    assert.deepEqual([modify.additions, modify.deletions], [2, 1]);
    assert.deepEqual([create.additions, create.deletions], [2, 0]);
    assert.deepEqual([del.additions, del.deletions], [0, 1]);
    assert.equal(create.path, 'dir/new.txt');
    assert.equal(create.originalContent, null);
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(existsSync(abs('dir')), false);
    assert.equal(existsSync(abs('b.txt')), true);
    assert.equal(store.proposedContent(abs('b.txt')), null);
    assert.equal(store.proposedContent(abs('dir/new.txt')), 'x\ny\n');
    assert.equal(store.proposedContent(abs('other.txt')), undefined);
    assert.equal(store.open()?.runId, 'run1');
  });

  it('merges repeated edits of one file into one change keeping the first original', async () => {
    store.beginRun('run1');
    const first = await store.propose(abs('a.txt'), 'v1\n');
    writeFileSync(abs('a.txt'), 'changed on disk meanwhile\n');
    const second = await store.propose(abs('a.txt'), 'v2\n');
    assert.equal(second.id, first.id);
    assert.equal(second.originalContent, 'one\ntwo\nthree\n');
    assert.equal(store.open()?.changes.length, 1);
    assert.equal(store.proposedContent(abs('a.txt')), 'v2\n');
  });

  it('drops a change when a create is followed by a delete, and notifies each update', async () => {
    const updates: BatchUpdate[] = [];
    store.onUpdate = (u) => updates.push(u);
    store.beginRun('run1');
    await store.propose(abs('tmp.txt'), 'temp\n');
    await store.propose(abs('tmp.txt'), null);
    assert.equal(store.open()?.changes.length, 0);
    assert.equal(store.proposedContent(abs('tmp.txt')), undefined);
    assert.deepEqual(updates.map((u) => [u.changes.length, u.removed.length, u.fileCount]), [[1, 0, 1], [0, 1, 0]]);
    assert.equal(store.finalize(), null, 'an empty batch is dropped');
    assert.equal(store.pending(), null);
  });

  it('accept_all writes every change atomically and leaves no temp files', async () => {
    const written: string[] = [];
    store.onFileWritten = (p) => written.push(p);
    store.beginRun('run1');
    await store.propose(abs('a.txt'), 'new a\n');
    await store.propose(abs('deep/er/c.txt'), 'c\n');
    await store.propose(abs('b.txt'), null);
    const batch = store.finalize();
    assert.equal(batch?.status, 'pending');
    assert.equal(store.pending()?.id, batch?.id);
    const results = await store.decide(batch!.id, 'accept_all');
    assert.deepEqual(results.map((r) => r.status), ['applied', 'applied', 'applied']);
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'new a\n');
    assert.equal(readFileSync(abs('deep/er/c.txt'), 'utf8'), 'c\n');
    assert.equal(existsSync(abs('b.txt')), false);
    assert.deepEqual(written.sort(), ['a.txt', 'b.txt', 'deep/er/c.txt']);
    assert.deepEqual(listAll(root), ['a.txt', 'deep', 'deep/er', 'deep/er/c.txt']);
    assert.equal(store.pending(), null);
  });

  it('reject_all writes nothing and closes the batch', async () => {
    store.beginRun('run1');
    await store.propose(abs('a.txt'), 'new a\n');
    const batch = store.finalize()!;
    const results = await store.decide(batch.id, 'reject_all');
    assert.deepEqual(results.map((r) => r.status), ['rejected']);
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'one\ntwo\nthree\n');
    assert.equal(store.pending(), null);
  });

  it('accept_selected writes only the chosen file', async () => {
    store.beginRun('run1');
    const a = await store.propose(abs('a.txt'), 'new a\n');
    await store.propose(abs('b.txt'), 'new b\n');
    const batch = store.finalize()!;
    const results = await store.decide(batch.id, 'accept_selected', [a.id]);
    assert.deepEqual(results.map((r) => [r.path, r.status]), [['a.txt', 'applied'], ['b.txt', 'rejected']]);
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'new a\n');
    assert.equal(readFileSync(abs('b.txt'), 'utf8'), 'bee\n');
  });

  it('refuses to write a file changed on disk since the proposal (stale), and a create whose file appeared', async () => {
    store.beginRun('run1');
    await store.propose(abs('a.txt'), 'agent version\n');
    await store.propose(abs('new.txt'), 'agent new\n');
    writeFileSync(abs('a.txt'), 'user edited\n');
    writeFileSync(abs('new.txt'), 'user created\n');
    const batch = store.finalize()!;
    const results = await store.decide(batch.id, 'accept_all');
    assert.deepEqual(results.map((r) => r.status), ['stale', 'stale']);
    assert.match(results[0]?.error ?? '', /a\.txt was modified on disk/);
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'user edited\n');
    assert.equal(readFileSync(abs('new.txt'), 'utf8'), 'user created\n');
  });

  it('reports a write error as failed without stopping the other changes', async () => {
    writeFileSync(abs('blocker'), 'a file where a folder is needed\n');
    store.beginRun('run1');
    await store.propose(abs('blocker/inner.txt'), 'x\n');
    await store.propose(abs('a.txt'), 'ok\n');
    const batch = store.finalize()!;
    const results = await store.decide(batch.id, 'accept_all');
    assert.equal(results[0]?.status, 'failed');
    assert.match(results[0]?.error ?? '', /EEXIST|ENOTDIR/);
    assert.equal(results[1]?.status, 'applied');
  });

  it('throws UnknownIdError for an unknown batch or change id, naming the pending batch', async () => {
    store.beginRun('run1');
    const a = await store.propose(abs('a.txt'), 'x\n');
    const batch = store.finalize()!;
    await assert.rejects(store.decide('nope', 'accept_all'), (err: Error) => {
      assert.ok(err instanceof UnknownIdError);
      assert.match(err.message, /nope/);
      assert.match(err.message, new RegExp(batch.id));
      return true;
    });
    await assert.rejects(store.decide(batch.id, 'accept_selected', [a.id, 'ghost']), (err: Error) => {
      assert.ok(err instanceof UnknownIdError);
      assert.match(err.message, /ghost/);
      return true;
    });
    assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'one\ntwo\nthree\n', 'nothing written after a refused decision');
    assert.equal(store.pending()?.id, batch.id, 'the batch is still pending');
    await store.decide(batch.id, 'accept_all');
    await assert.rejects(store.decide(batch.id, 'accept_all'), /no batch is pending/);
  });

  it('does not open a new batch while one awaits a decision', async () => {
    store.beginRun('run1');
    await store.propose(abs('a.txt'), 'x\n');
    store.finalize();
    assert.equal(store.beginRun('run2'), false);
    await assert.rejects(store.propose(abs('b.txt'), 'y\n'), /awaiting a decision/);
  });

  it('serializes concurrent proposals of one file', async () => {
    store.beginRun('run1');
    const [x, y] = await Promise.all([store.propose(abs('a.txt'), 'x\n'), store.propose(abs('a.txt'), 'y\n')]);
    assert.equal(x.id, y.id);
    assert.equal(store.open()?.changes.length, 1);
    assert.equal(store.open()?.changes[0]?.originalContent, 'one\ntwo\nthree\n');
  });

  it('reports each proposal as the one entry it touched, with a revision that moves only when the content does', async () => {
    const updates: BatchUpdate[] = [];
    store.onUpdate = (u) => updates.push(u);
    store.beginRun('run1');
    await store.propose(abs('a.txt'), 'v1\n');
    await store.propose(abs('new.txt'), 'é\n');
    await store.propose(abs('a.txt'), 'v2\n');
    await store.propose(abs('a.txt'), 'v2\n'); // the same content again: nothing to report
    assert.deepEqual(
      updates.map((u) => [u.changes.map((c) => `${c.path}@${c.revision}`), u.fileCount]),
      [[['a.txt@1'], 1], [['new.txt@1'], 2], [['a.txt@2'], 2]],
    );
    const created = updates[1]!.changes[0]!;
    assert.deepEqual([created.originalBytes, created.proposedBytes], [null, 3], 'sizes in UTF-8 bytes');
    assert.equal('proposedContent' in created, false, 'updates carry no contents');
    assert.equal(updates[2]!.changes[0]!.originalBytes, 14, 'the first original is kept');
  });

  it('answers contents by batch and change id, bounded per answer, and none for a decided batch', async () => {
    store.beginRun('run1');
    const a = await store.propose(abs('a.txt'), 'x'.repeat(100));
    const c = await store.propose(abs('c.txt'), 'y'.repeat(100));
    const open = store.open()!;
    const all = store.contents(open.id, undefined, 10_000);
    assert.deepEqual(all.contents.map((x) => [x.changeId, x.revision, x.originalContent?.length ?? null, x.proposedContent?.length]), [
      [a.id, 1, 14, 100],
      [c.id, 1, null, 100],
    ]);
    assert.deepEqual(all.omitted, []);
    const bounded = store.contents(open.id, undefined, 150);
    assert.deepEqual([bounded.contents.map((x) => x.changeId), bounded.omitted], [[a.id], [c.id]]);
    assert.equal(store.contents(open.id, [c.id], 1).contents.length, 1, 'one change is always answered');
    assert.throws(() => store.contents(open.id, ['nope'], 100), /unknown change id nope in batch/);
    assert.throws(() => store.contents(open.id, [c.id], 10_000, 50), /change .* \(c\.txt\) is 0\.0 MiB as JSON, more than one message may carry .*ask for the other changes by id/);
    assert.equal(store.contents(open.id, [a.id, c.id], 150, 150).omitted[0], c.id, 'a change over the answer limit waits for its own answer');
    const pending = store.finalize()!;
    assert.equal(store.contents(pending.id, [a.id], 10_000).contents[0]?.proposedContent, 'x'.repeat(100));
    await store.decide(pending.id, 'reject_all');
    assert.throws(() => store.contents(pending.id, undefined, 100), (e: Error) => e instanceof UnknownIdError && /decided batches keep no contents/.test(e.message));
  });

  it('keeps the file mode when replacing a file', async () => {
    const script = abs('run.sh');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o755 });
    store.beginRun('run1');
    await store.propose(script, '#!/bin/sh\necho hi\n');
    await store.decide(store.finalize()!.id, 'accept_all');
    assert.equal(statSync(script).mode & 0o777, 0o755);
  });
});
