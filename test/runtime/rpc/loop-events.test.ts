import assert from 'node:assert/strict';
import { makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

describe('runtime rpc: loop bounds, batch updates and malformed tool arguments', () => {
  const t = useStubbedRuntime();

  it('config maxIterations ends the run: turn_end max_iterations, agent_end stopped', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A\n' }, t.stub.origin, { maxIterations: 2 });
    const read = { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] };
    t.stub.enqueue(read, read, read);
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'loop' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'stopped');
    assert.equal(end.stoppedReason, 'max_iterations');
    const turnEnds = rt.events.filter((e) => e.type === 'turn_end');
    assert.equal(turnEnds.at(-1)?.type === 'turn_end' && turnEnds.at(-1)?.reason, 'max_iterations');
    assert.equal(t.stub.requests.filter((r) => r.path.endsWith('/chat/completions')).length, 2);
  });

  it('emits change_batch_updated with only the file each write added as the batch grows', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'one.txt', content: '1\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'two.txt', content: '2\n' } }] },
      { text: 'two files' },
    );
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'write two' });
    await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    const updates = rt.events.flatMap((e) => (e.type === 'change_batch_updated' ? [e] : []));
    assert.deepEqual(updates.map((u) => [u.changes.map((c) => c.path), u.removed, u.fileCount]), [[['one.txt'], [], 1], [['two.txt'], [], 2]]);
    assert.ok(updates.every((u) => u.runId === runId && u.status === 'open' && u.batchId === updates[0]!.batchId));
  });

  it('invalid JSON tool arguments become a tool error the model sees in the next request', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path": "a.txt"' }] }, { text: 'sorry' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'read' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed');
    const toolEnd = rt.events.find((e) => e.type === 'tool_end');
    assert.ok(toolEnd && toolEnd.type === 'tool_end' && !toolEnd.success, 'the tool call failed');
    const second = t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'))[1]!;
    const toolMsg = second.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.ok(toolMsg, 'the next request carries the tool result');
    assert.match(toolMsg.content, /JSON|argument/i);
  });
});
