import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { RpcErrorCode } from '../../../src/protocol';
import { eventTrace, makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

describe('runtime rpc: a turn that reads, then edits', () => {
  const t = useStubbedRuntime();

  it('streams, runs tools, and holds the edit as a batch until decideChanges', async () => {
    const cwd = makeWorkspace({ 'hello.txt': 'hello world\n' }, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'hello.txt' } }] },
      { text: 'Changing it.', toolCalls: [{ name: 'edit_file', arguments: { path: 'hello.txt', old_text: 'world', new_text: 'there' } }] },
      { text: 'Done: hello.txt now greets there.', chunkDelayMs: 5 }, // paced like a real server, so deltas arrive apart
    );
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'change world to there' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed');
    assert.equal(end.text, 'Done: hello.txt now greets there.');
    assert.deepEqual(eventTrace(rt.events), [
      'agent_start',
      'turn_start', 'message_start', 'message_end', 'tool_start', 'tool_end', 'turn_end',
      'turn_start', 'message_start', 'message_end', 'tool_start', 'tool_end', 'turn_end',
      'turn_start', 'message_start', 'message_end', 'turn_end',
      'change_batch_ready',
      'agent_end',
    ]);
    assert.ok(rt.events.some((e) => e.type === 'message_update'), 'text streamed as deltas');
    const deltas = rt.events.filter((e) => e.type === 'message_update').map((e) => (e as { delta: string }).delta);
    assert.ok(deltas.length > 2, 'several deltas');
    // The second request carried the read result; the third the edit result.
    const toolMsg = t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.match(toolMsg.content, /hello world/);
    // Nothing on disk yet.
    assert.equal(readFileSync(path.join(cwd, 'hello.txt'), 'utf8'), 'hello world\n');
    const ready = rt.events.find((e) => e.type === 'change_batch_ready')!;
    assert.equal(ready.type, 'change_batch_ready');
    const batch = ready.batch;
    assert.equal(batch.changes.length, 1);
    assert.equal(batch.changes[0]!.kind, 'modify');
    assert.equal(batch.changes[0]!.proposedBytes, 'hello there\n'.length);
    const { contents } = await rt.request('getChangeContents', { batchId: batch.id });
    assert.deepEqual(contents.map((c) => [c.originalContent, c.proposedContent]), [['hello world\n', 'hello there\n']]);
    const state = await rt.request('getState', {});
    assert.equal(state.pendingBatch?.id, batch.id);
    // A new prompt while the batch waits is refused with a clear error.
    await assert.rejects(rt.request('prompt', { message: 'more' }), (e: { code: number; message: string }) => {
      assert.equal(e.code, RpcErrorCode.BatchPending);
      assert.match(e.message, /decideChanges/);
      return true;
    });
    const decided = await rt.request('decideChanges', { batchId: batch.id, decision: 'accept_all' });
    assert.deepEqual(decided.results.map((r) => r.status), ['applied']);
    assert.equal(readFileSync(path.join(cwd, 'hello.txt'), 'utf8'), 'hello there\n');
    await rt.waitForEvent('file_modified', (e) => e.path === 'hello.txt');
    assert.equal((await rt.request('getState', {})).pendingBatch, null);
  });

  it('accept_selected writes only the chosen file; a stale file is refused', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A\n', 'b.txt': 'B\n', 'c.txt': 'C\n' }, t.stub.origin);
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'a.txt', content: 'A2\n' } },
          { name: 'write_file', arguments: { path: 'b.txt', content: 'B2\n' } },
          { name: 'write_file', arguments: { path: 'c.txt', content: 'C2\n' } },
        ],
      },
      { text: 'wrote three files' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'rewrite' });
    const ready = await rt.waitForEvent('change_batch_ready');
    const [a, b, c] = ready.batch.changes;
    assert.ok(a && b && c);
    writeFileSync(path.join(cwd, 'c.txt'), 'changed by the user\n');
    const res = await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_selected', changeIds: [a.id, c.id] });
    const status = Object.fromEntries(res.results.map((r) => [r.path, r.status]));
    assert.deepEqual(status, { 'a.txt': 'applied', 'b.txt': 'rejected', 'c.txt': 'stale' });
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'A2\n');
    assert.equal(readFileSync(path.join(cwd, 'b.txt'), 'utf8'), 'B\n');
    assert.equal(readFileSync(path.join(cwd, 'c.txt'), 'utf8'), 'changed by the user\n');
    await assert.rejects(rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' }), (e: { code: number }) => {
      assert.equal(e.code, RpcErrorCode.UnknownId);
      return true;
    });
  });

  it('a denied permission stops the command and the model is told', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made-by-agent' } }] }, { text: 'ok, not running it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'make a file' });
    const req = await rt.waitForEvent('permission_request');
    assert.equal(req.tool, 'run_command');
    assert.equal(req.command, 'touch made-by-agent');
    assert.ok(req.suggestedRules.includes('Bash(touch:*)'), req.suggestedRules.join(','));
    // permission_request precedes the tool's start
    assert.ok(!rt.events.some((e) => e.type === 'tool_start'));
    await rt.request('acknowledgePermission', { requestId: req.requestId });
    assert.equal((await rt.request('getState', {})).pendingPermissions[0]?.acknowledged, true);
    await rt.request('permissionResponse', { requestId: req.requestId, allowed: false });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'completed');
    const toolEnd = rt.events.find((e) => e.type === 'tool_end');
    assert.equal(toolEnd?.type === 'tool_end' && toolEnd.success, false);
    assert.equal(existsSync(path.join(cwd, 'made-by-agent')), false);
    const told = t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.match(told.content, /denied/);
    await assert.rejects(rt.request('permissionResponse', { requestId: req.requestId, allowed: true }), (e: { code: number }) => {
      assert.equal(e.code, RpcErrorCode.UnknownId);
      return true;
    });
  });

  it('an allowed permission runs the command and streams its output', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo one; echo two' } }] }, { text: 'ran it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'run' });
    const req = await rt.waitForEvent('permission_request');
    await rt.request('permissionResponse', { requestId: req.requestId, decision: 'allow', scope: 'session' });
    await rt.waitForEvent('agent_end');
    const updates = rt.events.filter((e) => e.type === 'tool_update').map((e) => (e as { output: string }).output).join('');
    assert.match(updates, /one\ntwo/);
    assert.ok(rt.events.some((e) => e.type === 'permission_resolved' && e.outcome === 'allowed' && e.scope === 'session'));
  });

  it('directory access outside the workspace is requested and a denial keeps the tool away', async () => {
    const outside = makeWorkspace({ 'secret.txt': 'top secret' });
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'secret.txt') } }] }, { text: 'could not read it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read the secret' });
    const req = await rt.waitForEvent('directory_access_request');
    assert.ok(req.path.endsWith(path.basename(outside)), req.path);
    await rt.request('acknowledgeDirectoryAccess', { requestId: req.requestId });
    await rt.request('respondToDirectoryAccess', { requestId: req.requestId, allowed: false });
    await rt.waitForEvent('agent_end');
    const told = t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.doesNotMatch(told.content, /top secret/);
    assert.match(told.content, /denied/);
  });
});
