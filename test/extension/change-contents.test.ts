import assert from 'node:assert/strict';
import { ChangeContentsCache, type FetchContents } from '../../src/extension/changes/change-contents';
import type { ChangeBatch, ChangeContents } from '../../src/protocol/records';

const change = (id: string, revision = 1) => ({
  id, path: `${id}.txt`, absolutePath: `/w/${id}.txt`, kind: 'modify' as const, additions: 1, deletions: 1, revision, originalBytes: 2, proposedBytes: 2,
});
const batch = (id: string, changes: ReturnType<typeof change>[], status: ChangeBatch['status'] = 'pending'): ChangeBatch => ({ id, runId: 'r1', status, changes });

/** A runtime stand-in: answers from `sides` at the current revisions, at most `perAnswer` changes per answer. */
function fakeRuntime(current: () => ChangeBatch, perAnswer = 100) {
  const calls: string[][] = [];
  const fetch: FetchContents = async (batchId, ids) => {
    calls.push(ids);
    await Promise.resolve();
    const b = current();
    if (b.id !== batchId) throw new Error(`unknown change batch id ${batchId}`);
    const contents: ChangeContents[] = ids.slice(0, perAnswer).map((id) => {
      const c = b.changes.find((x) => x.id === id)!;
      return { changeId: id, path: c.path, revision: c.revision, originalContent: `${id} old`, proposedContent: `${id} new r${c.revision}`, hunks: [] };
    });
    return { contents, omitted: ids.slice(perAnswer) };
  };
  return { fetch, calls };
}

describe('extension change contents (fetched when a diff opens)', () => {
  it('fetches a change once and serves both sides from what it holds', async () => {
    const b = batch('b1', [change('c1'), change('c2')]);
    const rt = fakeRuntime(() => b);
    const cache = new ChangeContentsCache(rt.fetch);
    cache.setBatch(b);
    const [left, right] = await Promise.all([cache.get('b1', 'c1'), cache.get('b1', 'c1')]);
    assert.equal(left?.originalContent, 'c1 old');
    assert.equal(right?.proposedContent, 'c1 new r1');
    assert.deepEqual(rt.calls, [['c1']], 'two sides opened together ask once');
    await cache.get('b1', 'c1');
    assert.equal(rt.calls.length, 1, 'held contents are not fetched again');
    assert.equal(await cache.get('b2', 'c1'), undefined, 'another batch is not served');
  });

  it('drops contents whose revision moved on, names the changes to refresh, and fetches the new revision', async () => {
    let b = batch('b1', [change('c1'), change('c2')], 'open');
    const rt = fakeRuntime(() => b);
    const cache = new ChangeContentsCache(rt.fetch);
    cache.setBatch(b);
    await cache.get('b1', 'c1');
    b = batch('b1', [change('c1', 2), change('c2')], 'open');
    assert.deepEqual(cache.setBatch(b), ['c1']);
    assert.equal((await cache.get('b1', 'c1'))?.proposedContent, 'c1 new r2');
    b = batch('b1', [change('c2')], 'open');
    cache.setBatch(b);
    assert.equal(await cache.get('b1', 'c1'), undefined, 'a change that left the batch is not served');
  });

  it('prefetches the whole batch through bounded answers and hands it to a local apply', async () => {
    const b = batch('b1', [change('c1'), change('c2'), change('c3')]);
    const rt = fakeRuntime(() => b, 2);
    const cache = new ChangeContentsCache(rt.fetch);
    cache.setBatch(b);
    await cache.prefetch();
    assert.deepEqual(rt.calls, [['c1', 'c2', 'c3'], ['c3']], 'the omitted ids are asked for again');
    assert.deepEqual([...cache.heldFor('b1').keys()], ['c1', 'c2', 'c3']);
    assert.equal(cache.heldFor('other').size, 0);
    await cache.prefetch();
    assert.equal(rt.calls.length, 2, 'nothing left to fetch');
  });

  it('a runtime that answers nothing fails the fetch instead of looping', async () => {
    const b = batch('b1', [change('c1')]);
    const cache = new ChangeContentsCache(async (_b, ids) => ({ contents: [], omitted: ids }));
    cache.setBatch(b);
    await assert.rejects(cache.prefetch(), /returned no contents/);
    assert.equal(cache.heldFor('b1').size, 0);
  });
});
