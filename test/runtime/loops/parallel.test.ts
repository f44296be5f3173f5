import assert from 'node:assert/strict';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

const command = (cmd: string, id: string) => ({ name: 'run_command', arguments: { command: cmd }, id });
const toolEvents = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'tool_start' || e.type === 'tool_end' ? [`${e.type === 'tool_start' ? 'start' : 'end'}:${e.toolCallId}`] : []));

describe('loop strategy parallel (real runtime, stub model)', () => {
  const t = useStubbedRuntime();
  const chats = () => t.stub.requests.filter((r) => r.path.endsWith('/chat/completions'));

  it('runs the independent commands of one message at once and gives the results back in the calls order', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'parallel' });
    t.stub.enqueue(
      { toolCalls: [command('sleep 1; echo first', 'c1'), command('sleep 0.5; echo second', 'c2'), command('sleep 0.2; echo third', 'c3')] },
      { text: 'all three ran' },
    );
    const rt = await t.start(cwd, { args: ['--yolo'] });
    const { runId } = await rt.request('prompt', { message: 'run three' });
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'completed', rt.stderr());
    const trace = toolEvents(rt.events);
    // The three intervals overlap: every command started before any of them ended.
    assert.deepEqual(trace.slice(0, 3).sort(), ['start:c1', 'start:c2', 'start:c3']);
    // The shortest ended first, yet the model gets the results in the order it asked for them.
    assert.deepEqual(trace.slice(3), ['end:c3', 'end:c2', 'end:c1']);
    const toolMessages = chats()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.deepEqual(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id), ['c1', 'c2', 'c3']);
    assert.deepEqual(toolMessages.map((m: { content: string }) => /first|second|third/.exec(m.content)?.[0]), ['first', 'second', 'third']);
  });

  it('the react loop (default) runs the same calls one after another', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [command('echo one', 'c1'), command('echo two', 'c2')] }, { text: 'done' });
    const rt = await t.start(cwd, { args: ['--yolo'] });
    await rt.request('prompt', { message: 'run two' });
    await rt.waitForEvent('agent_end');
    assert.deepEqual(toolEvents(rt.events), ['start:c1', 'end:c1', 'start:c2', 'end:c2']);
  });

  it('asks one question at a time while the calls run concurrently', async () => {
    const outsideA = makeWorkspace({ 'a.txt': 'AAA\n' });
    const outsideB = makeWorkspace({ 'b.txt': 'BBB\n' });
    const cwd = makeWorkspace({ 'in.txt': 'inside\n' }, t.stub.origin, { loopType: 'parallel' });
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: path.join(outsideA, 'a.txt') }, id: 'ra' },
          { name: 'read_file', arguments: { path: path.join(outsideB, 'b.txt') }, id: 'rb' },
          { name: 'read_file', arguments: { path: 'in.txt' }, id: 'rin' },
        ],
      },
      { text: 'read all' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read them' });
    const first = await rt.waitForEvent('directory_access_request');
    // The read that needs no question is not held up by the open one.
    await rt.waitForEvent('tool_end', (e) => e.toolCallId === 'rin');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rt.events.filter((e) => e.type === 'directory_access_request').length, 1, 'the second question waits for the first answer');
    await rt.request('respondToDirectoryAccess', { requestId: first.requestId, allowed: true, scope: 'once' });
    const second = await rt.waitForEvent('directory_access_request', (e) => e.requestId !== first.requestId);
    const resolvedAt = rt.events.findIndex((e) => e.type === 'directory_access_resolved');
    assert.ok(resolvedAt >= 0 && resolvedAt < rt.events.indexOf(second), 'the second question comes after the first was answered');
    await rt.request('respondToDirectoryAccess', { requestId: second.requestId, allowed: true, scope: 'once' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'completed');
    const toolMessages = chats()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.deepEqual(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id), ['ra', 'rb', 'rin']);
    assert.match(toolMessages[0].content, /AAA/);
    assert.match(toolMessages[1].content, /BBB/);
  });

  it('permission prompts (an ask rule on reads) come one at a time; the allowed calls still run', async () => {
    const cwd = makeWorkspace({ 'secret/a.txt': 'A1\n', 'secret/b.txt': 'B1\n' }, t.stub.origin, { loopType: 'parallel', permissions: { ask: ['Read(secret/**)'] } });
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'secret/a.txt' }, id: 'pa' },
          { name: 'read_file', arguments: { path: 'secret/b.txt' }, id: 'pb' },
        ],
      },
      { text: 'read both' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read the secrets' });
    const first = await rt.waitForEvent('permission_request');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rt.events.filter((e) => e.type === 'permission_request').length, 1, 'the second prompt waits for the first answer');
    await rt.request('permissionResponse', { requestId: first.requestId, decision: 'allow', allowed: true, scope: 'once' });
    const second = await rt.waitForEvent('permission_request', (e) => e.requestId !== first.requestId);
    assert.notEqual(second.toolCallId, first.toolCallId);
    await rt.request('permissionResponse', { requestId: second.requestId, decision: 'allow', allowed: true, scope: 'once' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'completed');
    const toolMessages = chats()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.deepEqual(toolMessages.map((m: { content: string }) => /A1|B1/.exec(m.content)?.[0]), ['A1', 'B1']);
  });

  it('an abort stops every running call and every call still gets a result', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { loopType: 'parallel' });
    const unique = `${process.pid % 1000}${Date.now() % 100000}`;
    t.stub.enqueue({
      toolCalls: [command(`sleep 30.${unique}`, 's1'), command(`sleep 31.${unique}`, 's2'), command(`sleep 32.${unique}`, 's3')],
    });
    const rt = await t.start(cwd, { args: ['--yolo'] });
    const { runId } = await rt.request('prompt', { message: 'sleep long' });
    for (const id of ['s1', 's2', 's3']) await rt.waitForEvent('tool_start', (e) => e.toolCallId === id);
    await rt.request('abort', {});
    const end = await rt.waitForEvent('agent_end', (e) => e.runId === runId);
    assert.equal(end.status, 'aborted');
    const ends = rt.events.filter((e) => e.type === 'tool_end');
    assert.deepEqual(ends.map((e) => e.type === 'tool_end' && [e.toolCallId, e.success]).sort(), [['s1', false], ['s2', false], ['s3', false]]);
    // The next prompt's history has a result for every call.
    t.stub.enqueue({ text: 'ok' });
    await rt.request('prompt', { message: 'next' });
    await rt.waitForEvent('agent_end', (e) => e.runId !== runId);
    const toolMessages = chats()[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.equal(toolMessages.length, 3);
  });
});
