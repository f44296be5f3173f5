import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RpcErrorCode } from '../../../src/protocol';
import { makeWorkspace, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const ORIGINAL = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\r\n') + '\r\n';
const FIRST = ORIGINAL.replace('line 2\r\n', 'LINE 2 (first hunk)\r\n');
const SECOND = ORIGINAL.replace('line 18\r\n', 'LINE 18 (second hunk)\r\nadded line\r\n');
const BOTH = FIRST.replace('line 18\r\n', 'LINE 18 (second hunk)\r\nadded line\r\n');

describe('runtime rpc: deciding a change per hunk', () => {
  const t = useStubbedRuntime();

  /** One run that edits notes.txt into BOTH (two separated hunks) and creates new.txt; answers the pending batch. */
  async function proposeEdits(rt: RuntimeUnderTest) {
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'notes.txt', content: BOTH } },
          { name: 'write_file', arguments: { path: 'new.txt', content: 'new\n' } },
        ],
      },
      { text: 'edited' },
    );
    await rt.request('prompt', { message: 'edit notes' });
    const ready = await rt.waitForEvent('change_batch_ready', (e) => !rt.events.some((x) => x.type === 'change_batch_decided' && x.batchId === e.batch.id));
    const notes = ready.batch.changes.find((c) => c.path === 'notes.txt')!;
    const created = ready.batch.changes.find((c) => c.path === 'new.txt')!;
    await rt.waitForEvent('agent_end');
    return { batchId: ready.batch.id, notes, created };
  }

  it('writes exactly the chosen hunk, reports which hunks were applied, and tells hooks and events', async () => {
    const cwd = makeWorkspace({ 'notes.txt': ORIGINAL }, t.stub.origin);
    const rt = await t.start(cwd);
    const { batchId, notes, created } = await proposeEdits(rt);
    const { contents } = await rt.request('getChangeContents', { batchId, changeIds: [notes.id, created.id] });
    assert.deepEqual(contents[0]!.hunks, [
      { oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 },
      { oldStart: 15, oldLines: 6, newStart: 15, newLines: 7 },
    ]);
    assert.deepEqual(contents[1]!.hunks, [], 'a created file is decided whole');
    const decided = await rt.request('decideChanges', { batchId, decision: 'accept_all', hunks: { [notes.id]: [1] } });
    assert.deepEqual(decided.results, [
      { changeId: notes.id, path: 'notes.txt', status: 'applied', hunks: { applied: [1], total: 2 } },
      { changeId: created.id, path: 'new.txt', status: 'applied' },
    ]);
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), SECOND, 'only the second hunk, CRLF kept');
    assert.equal(readFileSync(path.join(cwd, 'new.txt'), 'utf8'), 'new\n');
    const event = await rt.waitForEvent('change_batch_decided');
    assert.deepEqual(event.results[0]!.hunks, { applied: [1], total: 2 });
  });

  it('a change with no chosen hunk is rejected; accept_selected applies hunks of the changes it names', async () => {
    const cwd = makeWorkspace({ 'notes.txt': ORIGINAL }, t.stub.origin);
    const rt = await t.start(cwd);
    const first = await proposeEdits(rt);
    const none = await rt.request('decideChanges', { batchId: first.batchId, decision: 'accept_selected', changeIds: [first.notes.id], hunks: { [first.notes.id]: [] } });
    assert.deepEqual(none.results.map((r) => [r.path, r.status, r.hunks]), [
      ['notes.txt', 'rejected', { applied: [], total: 2 }],
      ['new.txt', 'rejected', undefined],
    ]);
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), ORIGINAL);
    const second = await proposeEdits(rt);
    const one = await rt.request('decideChanges', { batchId: second.batchId, decision: 'accept_selected', changeIds: [second.notes.id], hunks: { [second.notes.id]: [0] } });
    assert.deepEqual(one.results.map((r) => [r.path, r.status]), [['notes.txt', 'applied'], ['new.txt', 'rejected']]);
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), FIRST);
  });

  it('a file changed on disk since the proposal is stale, hunks or not', async () => {
    const cwd = makeWorkspace({ 'notes.txt': ORIGINAL }, t.stub.origin);
    const rt = await t.start(cwd);
    const { batchId, notes } = await proposeEdits(rt);
    writeFileSync(path.join(cwd, 'notes.txt'), 'the user rewrote it\n');
    const decided = await rt.request('decideChanges', { batchId, decision: 'accept_selected', changeIds: [notes.id], hunks: { [notes.id]: [0] } });
    assert.equal(decided.results[0]!.status, 'stale');
    assert.deepEqual(decided.results[0]!.hunks, { applied: [], total: 2 });
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), 'the user rewrote it\n');
  });

  it('refuses a bad selection with -32602 naming hunks.<id>, and the batch stays pending', async () => {
    const cwd = makeWorkspace({ 'notes.txt': ORIGINAL }, t.stub.origin);
    const rt = await t.start(cwd);
    const { batchId, notes, created } = await proposeEdits(rt);
    const refused = async (params: Parameters<typeof rt.raw>[1], pattern: RegExp) =>
      assert.rejects(rt.raw('decideChanges', params), (e: { code: number; message: string }) => {
        assert.equal(e.code, RpcErrorCode.InvalidParams);
        assert.match(e.message, pattern);
        return true;
      });
    await refused({ batchId, decision: 'accept_all', hunks: { [notes.id]: [2] } }, new RegExp(`hunks\\.${notes.id}: notes\\.txt has 2 hunk\\(s\\), numbered 0 to 1; there is no hunk 2`));
    await refused({ batchId, decision: 'accept_all', hunks: { [notes.id]: [0, 0] } }, /hunks\..*hunk 0 is listed twice/);
    await refused({ batchId, decision: 'accept_all', hunks: { chg_unknown: [0] } }, /hunks\.chg_unknown: no change chg_unknown in this batch/);
    await refused({ batchId, decision: 'accept_all', hunks: { [created.id]: [0] } }, /new\.txt is created whole; accept or reject the file, not hunks/);
    await refused({ batchId, decision: 'accept_selected', changeIds: [created.id], hunks: { [notes.id]: [0] } }, /notes\.txt is not accepted by this decision/);
    await refused({ batchId, decision: 'reject_all', hunks: { [notes.id]: [0] } }, /reject_all applies no hunk/);
    await refused({ batchId, decision: 'accept_all', hunks: { [notes.id]: [-1] } }, /hunks/);
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), ORIGINAL, 'nothing written');
    assert.equal((await rt.request('getState', {})).pendingBatch?.id, batchId, 'still waiting for a decision');
    const decided = await rt.request('decideChanges', { batchId, decision: 'accept_all', hunks: { [notes.id]: [0, 1] } });
    assert.equal(decided.results[0]!.status, 'applied');
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), BOTH, 'all hunks: the whole proposal');
  });
});
