import assert from 'node:assert/strict';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RpcErrorCode } from '../../../src/protocol';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';

type ToolCall = { name: string; arguments: Record<string, unknown> };

/** Has the stub propose `calls` in one run, and accepts the batch; answers the batch id. */
async function applyBatch(rt: RuntimeUnderTest, stub: { enqueue: (...r: object[]) => void }, calls: ToolCall[]): Promise<string> {
  stub.enqueue({ toolCalls: calls }, { text: 'done' });
  const { runId } = await rt.request('prompt', { message: 'change the files' });
  const ready = await rt.waitForEvent('change_batch_ready', (e) => e.runId === runId);
  await rt.waitForEvent('agent_end', (e) => e.runId === runId);
  const decided = await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
  assert.ok(decided.results.every((r) => r.status === 'applied'), JSON.stringify(decided.results));
  return ready.batch.id;
}

const read = (cwd: string, rel: string) => readFileSync(path.join(cwd, rel), 'utf8');
const rpcError = (code: number, pattern: RegExp) => (e: { code: number; message: string }) => {
  assert.equal(e.code, code, e.message);
  assert.match(e.message, pattern);
  return true;
};

describe('undo an applied change batch (real runtime process)', function () {
  this.timeout(60_000);
  const t = useStubbedRuntime();

  it('modify + create + delete, undone: the bytes on disk are back, the new folder is gone, the deleted file has its mode; undo twice is refused', async () => {
    const cwd = makeWorkspace({ 'keep.txt': 'one\ntwo\n', 'gone.sh': '#!/bin/sh\necho hi\n' }, t.stub.origin);
    chmodSync(path.join(cwd, 'gone.sh'), 0o755);
    const rt = await t.start(cwd);
    const batchId = await applyBatch(rt, t.stub, [
      { name: 'write_file', arguments: { path: 'keep.txt', content: 'one\nTWO\n' } },
      { name: 'write_file', arguments: { path: 'new/dir/made.txt', content: 'made\n' } },
      { name: 'delete_file', arguments: { path: 'gone.sh' } },
    ]);
    assert.equal(existsSync(path.join(cwd, 'gone.sh')), false);
    const listed = await rt.request('listAppliedChanges', {});
    assert.equal(listed.batches[0]?.batchId, batchId);
    assert.equal(listed.batches[0]?.undoable, true);
    assert.deepEqual(listed.batches[0]?.files.map((f) => [f.path, f.kind, f.state]), [
      ['keep.txt', 'modify', 'undoable'],
      ['new/dir/made.txt', 'create', 'undoable'],
      ['gone.sh', 'delete', 'undoable'],
    ]);

    const undone = await rt.request('undoChanges', {});
    assert.equal(undone.batchId, batchId);
    assert.deepEqual(undone.results.map((r) => [r.path, r.status]), [
      ['keep.txt', 'reverted'],
      ['new/dir/made.txt', 'reverted'],
      ['gone.sh', 'reverted'],
    ]);
    assert.equal(read(cwd, 'keep.txt'), 'one\ntwo\n');
    assert.equal(read(cwd, 'gone.sh'), '#!/bin/sh\necho hi\n');
    assert.equal(statSync(path.join(cwd, 'gone.sh')).mode & 0o777, 0o755);
    assert.equal(existsSync(path.join(cwd, 'new')), false, 'the folders the batch made are removed again');
    const event = await rt.waitForEvent('changes_reverted');
    assert.deepEqual(event.results, undone.results);
    assert.deepEqual((await rt.request('listAppliedChanges', {})).batches[0]?.files.map((f) => f.state), ['undone', 'undone', 'undone']);

    await assert.rejects(rt.request('undoChanges', { batchId }), rpcError(RpcErrorCode.UnknownId, new RegExp(`change batch ${batchId} was already undone`)));
    await assert.rejects(rt.request('undoChanges', {}), rpcError(RpcErrorCode.UnknownId, /nothing to undo/));
    assert.equal(read(cwd, 'keep.txt'), 'one\ntwo\n');
  });

  it('a file edited after the apply is stale and kept as it is; the other file is reverted', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, t.stub.origin);
    const rt = await t.start(cwd);
    await applyBatch(rt, t.stub, [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } },
      { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } },
    ]);
    writeFileSync(path.join(cwd, 'a.txt'), 'A edited by the user\n');
    const undone = await rt.request('undoChanges', {});
    assert.deepEqual(undone.results, [
      { changeId: undone.results[0]!.changeId, path: 'a.txt', status: 'stale', reason: 'a.txt changed since it was applied — kept' },
      { changeId: undone.results[1]!.changeId, path: 'b.txt', status: 'reverted' },
    ]);
    assert.equal(read(cwd, 'a.txt'), 'A edited by the user\n');
    assert.equal(read(cwd, 'b.txt'), 'b\n');
    const [batch] = (await rt.request('listAppliedChanges', {})).batches;
    assert.deepEqual(batch?.files.map((f) => f.state), ['undoable', 'undone'], 'the stale file can be undone once it is put back');
  });

  it('a folder swapped for a symlink after the apply is not followed: failed, the outside file untouched', async () => {
    const outside = makeTempDir('agentcli-outside-');
    writeFileSync(path.join(outside, 'a.txt'), 'NEW\n');
    const cwd = makeWorkspace({ 'dir/a.txt': 'old\n' }, t.stub.origin);
    const rt = await t.start(cwd);
    await applyBatch(rt, t.stub, [{ name: 'write_file', arguments: { path: 'dir/a.txt', content: 'NEW\n' } }]);
    rmSync(path.join(cwd, 'dir'), { recursive: true });
    symlinkSync(outside, path.join(cwd, 'dir'));
    const undone = await rt.request('undoChanges', {});
    assert.equal(undone.results[0]!.status, 'failed');
    assert.match(undone.results[0]!.reason!, /^dir\/a\.txt now resolves outside the workspace through a symlink/);
    assert.equal(readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'NEW\n');
    assert.deepEqual(readdirSync(outside), ['a.txt']);
  });

  it('a file applied in part (one hunk of two) is undone back to its original', async () => {
    const original = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const cwd = makeWorkspace({ 'h.txt': original }, t.stub.origin);
    const rt = await t.start(cwd);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'h.txt', content: original.replace('line 2\n', 'TWO\n').replace('line 18\n', 'EIGHTEEN\n') } }] }, { text: 'done' });
    const { runId } = await rt.request('prompt', { message: 'edit two lines' });
    const ready = await rt.waitForEvent('change_batch_ready', (e) => e.runId === runId);
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    const changeId = ready.batch.changes[0]!.id;
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all', hunks: { [changeId]: [0] } });
    assert.equal(read(cwd, 'h.txt'), original.replace('line 2\n', 'TWO\n'), 'only the first hunk was written');
    const undone = await rt.request('undoChanges', {});
    assert.deepEqual(undone.results.map((r) => r.status), ['reverted']);
    assert.equal(read(cwd, 'h.txt'), original);
  });

  it('paths pick files (an unknown one is -32602 naming it); refused while a batch waits for a decision', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, t.stub.origin);
    const rt = await t.start(cwd);
    const batchId = await applyBatch(rt, t.stub, [
      { name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } },
      { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } },
    ]);
    await assert.rejects(
      rt.request('undoChanges', { batchId, paths: ['a.txt', 'nope.txt'] }),
      rpcError(RpcErrorCode.InvalidParams, /paths\[1\]: "nope\.txt" is not a file of change batch \S+; its files are a\.txt, b\.txt/),
    );
    assert.equal(read(cwd, 'a.txt'), 'A\n', 'an invalid request reverts nothing');
    const undone = await rt.request('undoChanges', { batchId, paths: ['b.txt'] });
    assert.deepEqual(undone.results.map((r) => [r.path, r.status]), [['b.txt', 'reverted']]);
    assert.equal(read(cwd, 'a.txt'), 'A\n');
    assert.equal(read(cwd, 'b.txt'), 'b\n');

    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'c.txt', content: 'c\n' } }] }, { text: 'proposed' });
    const { runId } = await rt.request('prompt', { message: 'one more' });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    await assert.rejects(rt.request('undoChanges', {}), rpcError(RpcErrorCode.BatchPending, /is waiting for a decision/));
    assert.equal(read(cwd, 'a.txt'), 'A\n');
  });

  it('kept next to the session (0600) without secrets: a file holding one is not undoable and says why; a new runtime attached undoes the rest', async () => {
    const key = 'env-secret-value-9c8b7a66';
    const cwd = makeWorkspace({ 'plain.txt': 'plain\n' }, t.stub.origin);
    const env = testEnv({ DEPLOY_TOKEN: key });
    const rt1 = await t.start(cwd, { env });
    const batchId = await applyBatch(rt1, t.stub, [
      { name: 'write_file', arguments: { path: 'plain.txt', content: 'PLAIN\n' } },
      { name: 'write_file', arguments: { path: 'settings.txt', content: `TOKEN=${key}\n` } },
    ]);
    const { sessionId } = await rt1.request('getState', {});
    const [batch] = (await rt1.request('listAppliedChanges', {})).batches;
    assert.deepEqual(batch?.files.map((f) => [f.path, f.state]), [['plain.txt', 'undoable'], ['settings.txt', 'not_undoable']]);
    assert.match(batch!.files[1]!.reason!, /^settings\.txt holds a secret .*cannot be undone/);
    await rt1.close();

    const file = path.join(env.HOME!, '.agentcli', 'sessions', `${sessionId}.undo.json`);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const saved = readFileSync(file, 'utf8');
    assert.ok(!saved.includes(key), 'no secret in the undo file');
    assert.ok(saved.includes('PLAIN\\n'));

    const rt2 = await t.start(cwd, { env });
    assert.deepEqual((await rt2.request('listAppliedChanges', {})).batches, [], 'a new session has nothing to undo');
    const attached = await rt2.request('attachSession', { sessionId });
    assert.ok(attached.attached, JSON.stringify(attached));
    const undone = await rt2.request('undoChanges', { batchId });
    assert.deepEqual(undone.results.map((r) => [r.path, r.status]), [['plain.txt', 'reverted'], ['settings.txt', 'skipped']]);
    assert.equal(read(cwd, 'plain.txt'), 'plain\n');
    assert.equal(read(cwd, 'settings.txt'), `TOKEN=${key}\n`);
    await rt2.request('reset', {});
    assert.deepEqual((await rt2.request('listAppliedChanges', {})).batches, []);
  });
});
