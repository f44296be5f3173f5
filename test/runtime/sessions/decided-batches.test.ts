import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readSessionFile } from '../../../src/runtime/sessions/reader';
import { SessionFileWriter } from '../../../src/runtime/sessions/writer';
import { makeWorkspace, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';

const base = (count: number) => ({ at: '2026-01-01T00:00:01.000Z', count, provider: 'ggufserver', model: 'm' });

describe('saved sessions keep decided batches and error fixes (what a reopened chat shows)', function () {
  this.timeout(60_000);
  const t = useStubbedRuntime();

  it('getSession lists the applied batch where it was decided, with its results and undo results, and the error with its fix', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    const env = testEnv();
    const rt1 = await t.start(cwd, { env });
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'B\n' } }] }, { text: 'done' });
    const { runId } = await rt1.request('prompt', { message: 'change the files' });
    const ready = await rt1.waitForEvent('change_batch_ready', (e) => e.runId === runId);
    await rt1.waitForEvent('agent_end', (e) => e.runId === runId);
    await rt1.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_selected', changeIds: [ready.batch.changes.find((c) => c.path === 'a.txt')!.id] });
    await rt1.request('undoChanges', {});
    t.stub.enqueue({ status: 404, errorBody: { error: { message: 'The model `m` does not exist', code: 'model_not_found' } } });
    const failed = await rt1.request('prompt', { message: 'again' });
    const error = await rt1.waitForEvent('error', (e) => e.runId === failed.runId);
    await rt1.waitForEvent('agent_end', (e) => e.runId === failed.runId);
    const { sessionId } = await rt1.request('getState', {});
    await rt1.close();

    const rt2 = await t.start(cwd, { env });
    const details = await rt2.request('getSession', { sessionId });
    const [decided] = details.decidedBatches ?? [];
    assert.equal(details.decidedBatches?.length, 1);
    assert.equal(decided?.batchId, ready.batch.id);
    assert.equal(decided?.runId, runId);
    assert.deepEqual(decided?.files.map((f) => [f.path, f.kind, f.additions, f.deletions]), [['a.txt', 'modify', 1, 1], ['b.txt', 'create', 1, 0]]);
    assert.deepEqual(decided?.results.map((r) => [r.path, r.status]), [['a.txt', 'applied'], ['b.txt', 'rejected']]);
    assert.deepEqual(decided?.undoResults?.map((r) => [r.path, r.status]), [['a.txt', 'reverted']]);
    assert.equal(decided?.afterShown, 5, 'after the run: prompt, tool calls, two results, answer');
    const saved = details.errors.find((e) => e.code === error.code);
    assert.deepEqual(error.fix, { action: 'set_base_url', configKey: 'ggufserver.baseUrl' }, 'the live error names its fix');
    assert.deepEqual(saved?.fix, error.fix);
    assert.equal(saved?.remedy, error.remedy);
    // undone already: once attached, listAppliedChanges says it cannot be undone again (the card offers no Undo)
    await rt2.request('attachSession', { sessionId });
    assert.equal((await rt2.request('listAppliedChanges', {})).batches[0]?.undoable, false);
  });

  it('a batch decided after attach (proposed by an earlier runtime) is kept with its files too', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    const env = testEnv();
    const rt1 = await t.start(cwd, { env });
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'A\n' } }] }, { text: 'done' });
    const { runId } = await rt1.request('prompt', { message: 'change a' });
    const ready = await rt1.waitForEvent('change_batch_ready', (e) => e.runId === runId);
    await rt1.waitForEvent('agent_end', (e) => e.runId === runId);
    const { sessionId } = await rt1.request('getState', {});
    await rt1.close();
    const rt2 = await t.start(cwd, { env });
    assert.equal((await rt2.request('attachSession', { sessionId })).attached, true);
    await rt2.request('decideChanges', { batchId: ready.batch.id, decision: 'reject_all' });
    await rt2.close();
    const rt3 = await t.start(cwd, { env });
    const details = await rt3.request('getSession', { sessionId });
    assert.equal(details.pendingBatch, null);
    assert.deepEqual(details.decidedBatches?.map((b) => [b.batchId, b.files.map((f) => f.path), b.results.map((r) => r.status)]), [[ready.batch.id, ['a.txt'], ['rejected']]]);
  });

  it('an older file (batch lines without decided, errors without fix) reads as before', () => {
    const dir = makeTempDir('agentcli-decided-');
    const file = path.join(dir, 'session_aaaa00000009.jsonl');
    const w = SessionFileWriter.create(file, { type: 'meta', version: 1, sessionId: 'session_aaaa00000009', cwd: '/w', createdAt: base(0).at, title: 't', provider: 'ggufserver', model: 'm' });
    w.appendAll([
      { type: 'message', ...base(1), message: { role: 'user', content: 'hi' } },
      { type: 'batch', ...base(1), batch: null },
      { type: 'error', ...base(1), code: 'auth_failed', error: 'invalid key' },
    ]);
    w.close();
    const data = readSessionFile(file);
    assert.deepEqual(data.decided, []);
    assert.deepEqual(data.errors.map((e) => [e.code, 'fix' in e, 'remedy' in e]), [['auth_failed', false, false]]);
    assert.ok(fs.existsSync(file));
  });
});
