import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BatchPendingError, ChangeBatchCallbackError, InvalidArgumentError, type ReadyChangeBatch } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** A run's file edits (its change batch) land, are refused, or wait, and RunResult.changes says which; real runtime. */
describe('sdk change batches: decided when the run ends', function () {
  const t = useStubAndAgent(this);

  const editTurn = () =>
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'new.txt', content: 'created\n' } },
          { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'old', new_text: 'new' } },
        ],
      },
      { text: 'edited' },
    );
  const read = (cwd: string, file: string) => readFileSync(path.join(cwd, file), 'utf8');

  it('unrestricted: the batch is applied when the run ends, as the CLI --yolo does; the next run starts', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'unrestricted' }));
    editTurn();
    const result = await agent.run('edit');
    assert.equal(result.status, 'completed');
    assert.deepEqual(
      result.changes.map(({ path: p, kind, outcome }) => ({ path: p, kind, outcome })),
      [
        { path: 'new.txt', kind: 'create', outcome: 'applied' },
        { path: 'a.txt', kind: 'modify', outcome: 'applied' },
      ],
    );
    const ready = result.events.find((e) => e.type === 'change_batch_ready');
    assert.ok(ready?.type === 'change_batch_ready');
    assert.deepEqual(result.changes.map((c) => [c.id, c.batchId]), ready.batch.changes.map((c) => [c.id, ready.batch.id]));
    assert.equal(read(cwd, 'new.txt'), 'created\n');
    assert.equal(read(cwd, 'a.txt'), 'new\n');
    assert.equal((await agent.getState()).pendingBatch, null);
    t.stub.enqueue({ text: 'next' });
    assert.equal((await agent.run('next')).text, 'next', 'no BatchPendingError');
  });

  it('unrestricted: an aborted run applies nothing (as --patch --yolo); its changes are rejected and the next run starts', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'unrestricted' }));
    t.stub.enqueue({
      toolCalls: [
        { name: 'write_file', arguments: { path: 'a.txt', content: 'half done\n' } },
        { name: 'run_command', arguments: { command: 'sleep 30' } },
      ],
    });
    const run = agent.send('edit then wait');
    for await (const e of run.stream()) if (e.type === 'tool_start' && e.toolName === 'run_command') void run.abort();
    const result = await run.wait();
    assert.equal(result.status, 'aborted');
    assert.deepEqual(result.changes.map((c) => [c.path, c.outcome]), [['a.txt', 'rejected']]);
    assert.equal(read(cwd, 'a.txt'), 'old\n');
    t.stub.enqueue({ text: 'next' });
    assert.equal((await agent.run('next')).text, 'next');
  });

  it('a run without edits lists no changes', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd));
    t.stub.enqueue({ text: 'nothing to do' });
    assert.deepEqual((await agent.run('hi')).changes, []);
  });

  it('onChangeBatch accept_selected applies only the chosen changes; the rest are rejected (interactive mode)', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const seen: ReadyChangeBatch[] = [];
    const agent = await t.create(
      testAgentOptions(cwd, {
        permissionMode: 'interactive',
        onChangeBatch: (batch) => {
          seen.push(batch);
          const edit = batch.changes.find((c) => c.path === 'a.txt')!;
          return { decision: 'accept_selected', changeIds: [edit.id] };
        },
      }),
    );
    editTurn();
    const result = await agent.run('edit');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.status, 'pending');
    assert.deepEqual(result.changes.map((c) => [c.path, c.outcome]), [['new.txt', 'rejected'], ['a.txt', 'applied']]);
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
    assert.equal(read(cwd, 'a.txt'), 'new\n');
  });

  it("a run's own onChangeBatch overrides the agent's, also in unrestricted mode: reject_all writes nothing", async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'unrestricted', onChangeBatch: () => 'accept_all' }));
    editTurn();
    const result = await agent.run('edit', { onChangeBatch: async () => 'reject_all' as const });
    assert.deepEqual(result.changes.map((c) => c.outcome), ['rejected', 'rejected']);
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
    assert.equal(read(cwd, 'a.txt'), 'old\n');
  });

  it('a throwing onChangeBatch rejects the batch and the run rejects with ChangeBatchCallbackError; the agent goes on', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(
      testAgentOptions(cwd, {
        permissionMode: 'unrestricted',
        onChangeBatch: () => {
          throw new Error('review service down');
        },
      }),
    );
    editTurn();
    await assert.rejects(agent.run('edit'), (e: unknown) => {
      assert.ok(e instanceof ChangeBatchCallbackError);
      assert.match(e.message, /onChangeBatch failed for batch .*: review service down \(the batch was rejected\)/);
      assert.deepEqual(e.changes.map((c) => c.outcome), ['rejected', 'rejected']);
      return true;
    });
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
    assert.equal(read(cwd, 'a.txt'), 'old\n');
    t.stub.enqueue({ text: 'still here' });
    assert.equal((await agent.run('next', { onChangeBatch: () => 'accept_all' })).text, 'still here');
  });

  it('an invalid answer is refused naming what is wrong, and the batch is rejected', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'interactive' }));
    editTurn();
    await assert.rejects(
      agent.run('edit', { onChangeBatch: () => ({ decision: 'accept_selected', changeIds: ['chg_nope'] }) }),
      (e: unknown) => e instanceof ChangeBatchCallbackError && e.cause instanceof InvalidArgumentError && /chg_nope is not a change of batch/.test(e.message),
    );
    editTurn();
    await assert.rejects(
      agent.run('edit', { onChangeBatch: () => ({ decision: 'accept_selected', changeIds: [] }) }),
      (e: unknown) => e instanceof ChangeBatchCallbackError && /accept_selected needs changeIds/.test(e.message),
    );
    editTurn();
    await assert.rejects(
      agent.run('edit', { onChangeBatch: () => 'yes please' as never }),
      (e: unknown) => e instanceof ChangeBatchCallbackError && /returned "yes please"; answer 'accept_all', 'reject_all'/.test(e.message),
    );
    assert.equal(read(cwd, 'a.txt'), 'old\n');
    assert.throws(() => agent.send('x', { onChangeBatch: 'accept_all' as never }), InvalidArgumentError);
  });

  it('onChangeBatch can apply single hunks: the hunks come from getChangeContents, RunResult.changes says which landed', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `l${i + 1}`);
    const cwd = makeWorkspace({ 'a.txt': `${lines.join('\n')}\n` }, t.stub.origin);
    const edited = lines.map((l, i) => (i === 0 || i === 11 ? l.toUpperCase() : l));
    let hunkCount = 0;
    const agent = await t.create(
      testAgentOptions(cwd, {
        permissionMode: 'interactive',
        onChangeBatch: async (batch) => {
          const { contents } = await agent.getChangeContents({ batchId: batch.id });
          hunkCount = contents[0]!.hunks.length;
          return { decision: 'accept_all', hunks: { [contents[0]!.changeId]: [1] } };
        },
      }),
    );
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: `${edited.join('\n')}\n` } }] }, { text: 'edited' });
    const result = await agent.run('edit');
    assert.equal(hunkCount, 2);
    assert.deepEqual(result.changes.map((c) => [c.outcome, c.hunks]), [['applied', { applied: [1], total: 2 }]]);
    assert.equal(read(cwd, 'a.txt'), `${[...lines.slice(0, 11), 'L12'].join('\n')}\n`);
    editTurn();
    await assert.rejects(
      agent.run('edit', { onChangeBatch: (b) => ({ decision: 'accept_all', hunks: { [b.changes[0]!.id]: [0, 0] } }) }),
      (e: unknown) => e instanceof ChangeBatchCallbackError && /hunks\.chg_\w+: hunk 0 is listed twice/.test(e.message),
    );
    editTurn();
    await assert.rejects(
      agent.run('edit', { onChangeBatch: () => ({ decision: 'accept_all', hunks: { chg_nope: [0] } }) }),
      (e: unknown) => e instanceof ChangeBatchCallbackError && /hunks names chg_nope, not a change of batch/.test(e.message),
    );
  });

  it('undefined leaves the batch undecided: listed as such, the next prompt is refused until decideChanges', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'unrestricted', onChangeBatch: () => undefined }));
    editTurn();
    const result = await agent.run('edit');
    assert.deepEqual(result.changes.map((c) => c.outcome), ['undecided', 'undecided']);
    assert.equal(read(cwd, 'a.txt'), 'old\n');
    await assert.rejects(agent.run('more'), BatchPendingError);
    const decided = await agent.decideChanges({ batchId: result.changes[0]!.batchId, decision: 'accept_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['applied', 'applied']);
    assert.equal(read(cwd, 'a.txt'), 'new\n');
  });

  it('a file changed on disk before the decision is reported stale and kept as it is', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(
      testAgentOptions(cwd, {
        permissionMode: 'interactive',
        onChangeBatch: () => {
          writeFileSync(path.join(cwd, 'a.txt'), 'changed by someone else\n');
          return 'accept_all';
        },
      }),
    );
    editTurn();
    const result = await agent.run('edit');
    assert.deepEqual(result.changes.map((c) => [c.path, c.outcome]), [['new.txt', 'applied'], ['a.txt', 'stale']]);
    assert.ok(result.changes[1]!.error, 'a stale change says why');
    assert.equal(read(cwd, 'a.txt'), 'changed by someone else\n');
  });
});
