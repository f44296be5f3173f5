import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ProtocolError } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** Undoing a batch the agent applied, through the SDK's Agent against a real runtime. */
describe('sdk undo: listAppliedChanges and undoChanges', function () {
  const t = useStubAndAgent(this);

  it('an applied run is listed, undone file by file with its changes_reverted event, and refused a second time', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'old\n' }, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { permissionMode: 'unrestricted' }));
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'new.txt', content: 'created\n' } }, { name: 'edit_file', arguments: { path: 'a.txt', old_text: 'old', new_text: 'new' } }] },
      { text: 'edited' },
    );
    const result = await agent.run('edit');
    const batchId = result.changes[0]!.batchId;
    const { batches } = await agent.listAppliedChanges();
    assert.deepEqual(batches.map((b) => [b.batchId, b.undoable, b.files.map((f) => `${f.kind} ${f.path} ${f.state}`)]), [
      [batchId, true, ['create new.txt undoable', 'modify a.txt undoable']],
    ]);

    const reverted = new Promise((resolve) => agent.client.onEvent((e) => e.type === 'changes_reverted' && resolve(e)));
    const undone = await agent.undoChanges({ paths: ['a.txt'] });
    assert.deepEqual(undone.results.map((r) => [r.path, r.status]), [['a.txt', 'reverted']]);
    assert.deepEqual(await reverted, { type: 'changes_reverted', sessionId: (await agent.getState()).sessionId, batchId, results: undone.results });
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'old\n');
    assert.equal(existsSync(path.join(cwd, 'new.txt')), true, 'not named: kept');

    const rest = await agent.undoChanges({ batchId });
    assert.deepEqual(rest.results.map((r) => [r.path, r.status]), [['new.txt', 'reverted'], ['a.txt', 'skipped']]);
    assert.equal(existsSync(path.join(cwd, 'new.txt')), false);
    await assert.rejects(agent.undoChanges({ batchId }), (e: unknown) => e instanceof ProtocolError && e.code === -32012 && /already undone/.test(e.message));
  });
});
