import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { eventTrace, makeWorkspace, useStubbedRuntime } from '../../helpers/runtime-process';

/** Processes whose whole command line is exactly `command`. */
function processesMatching(command: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.trim().replace(/^\d+\s+/, '') === command);
}

describe('runtime rpc: abort', () => {
  const t = useStubbedRuntime();

  it('aborts mid-stream, still ends the turn and the run, and keeps the history for the next prompt', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'a long answer that streams slowly '.repeat(20), chunkDelayMs: 100 }, { text: 'second answer' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'first question' });
    await rt.waitForEvent('message_update');
    const res = await rt.request('abort', {});
    assert.deepEqual(res, { aborted: true, runId });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'aborted');
    assert.deepEqual(eventTrace(rt.events), ['agent_start', 'turn_start', 'message_start', 'message_end', 'turn_end', 'agent_end']);
    const turnEnd = rt.events.find((e) => e.type === 'turn_end');
    assert.equal(turnEnd?.type === 'turn_end' && turnEnd.reason, 'aborted');
    assert.deepEqual(await rt.request('abort', {}), { aborted: false });
    await rt.request('prompt', { message: 'second question' });
    await rt.waitForEvent('agent_end', (e) => e.runId !== runId);
    const sent = t.stub.requests[1]!.body.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content.slice(0, 15)}`);
    assert.ok(sent.includes('user:first question'), sent.join(' | '));
    assert.ok(sent.includes('user:second question'), sent.join(' | '));
  });

  it('aborts a running command by killing its whole process group', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    // Durations unique to this test run, so other processes on the machine cannot match.
    const unique = `${process.pid % 1000}${Date.now() % 100000}`;
    const [bg, fg] = [`sleep 300.${unique}`, `sleep 301.${unique}`];
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: `${bg} & ${fg}` } }] });
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'] });
    await rt.request('prompt', { message: 'run a long command' });
    await rt.waitForEvent('tool_start');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(processesMatching(bg).length + processesMatching(fg).length, 2, 'the command is running');
    await rt.request('abort', {});
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'aborted');
    const toolEnd = rt.events.find((e) => e.type === 'tool_end');
    assert.equal(toolEnd?.type === 'tool_end' && toolEnd.success, false);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(processesMatching(bg), []);
    assert.deepEqual(processesMatching(fg), []);
  });

  it('abort cancels a pending permission request and tells the host', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'x' });
    const req = await rt.waitForEvent('permission_request');
    await rt.request('abort', {});
    const resolved = await rt.waitForEvent('permission_resolved');
    assert.equal(resolved.requestId, req.requestId);
    assert.equal(resolved.outcome, 'cancelled');
    assert.equal((await rt.waitForEvent('agent_end')).status, 'aborted');
    assert.deepEqual((await rt.request('getState', {})).pendingPermissions, []);
  });
});

describe('runtime rpc: step control and editor tools', () => {
  const t = useStubbedRuntime();

  it('waits for respondToStep after a tool step and stops on "stop"', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'A' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, { text: 'not reached' });
    const rt = await t.start(cwd);
    const { runId } = await rt.request('prompt', { message: 'read', stepControl: true });
    const step = await rt.waitForEvent('step_end');
    assert.equal(step.awaitingDecision, true);
    assert.equal(step.step.stepNumber, 1);
    assert.deepEqual(step.step.toolCalls, [{ tool: 'read_file', args: { path: 'a.txt' } }]);
    await rt.request('respondToStep', { runId, stepNumber: 1, decision: 'stop' });
    const end = await rt.waitForEvent('agent_end');
    assert.equal(end.status, 'stopped');
    assert.equal(end.stoppedReason, 'stop_condition');
    const turnEnd = rt.events.filter((e) => e.type === 'turn_end').at(-1);
    assert.equal(turnEnd?.type === 'turn_end' && turnEnd.reason, 'stop_condition');
    assert.equal(t.stub.requests.length, 1, 'no model request after the stop');
  });

  it('routes an editor tool call to the host and back', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'editor_diagnostics', arguments: { path: 'x.ts' } }] }, { text: 'found one error' });
    const rt = await t.start(cwd);
    const reg = await rt.request('setEditorMcpTools', {
      tools: [{ name: 'diagnostics', description: 'Problems in a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
    });
    assert.deepEqual(reg.registered, ['editor_diagnostics']);
    await rt.request('prompt', { message: 'what is wrong' });
    const inv = await rt.waitForEvent('mcp_invocation');
    assert.equal(inv.tool, 'diagnostics');
    assert.deepEqual(inv.args, { path: 'x.ts' });
    await assert.rejects(rt.request('respondToMcpInvocation', { requestId: 'mcp_unknown', success: true, result: 'x' }));
    await rt.request('respondToMcpInvocation', { requestId: inv.requestId, success: true, result: 'x.ts:3: error TS2322' });
    await rt.waitForEvent('agent_end');
    const spec = t.stub.requests[0]!.body.tools.find((t: { function: { name: string } }) => t.function.name === 'editor_diagnostics');
    assert.ok(spec, 'the model was offered the editor tool');
    const told = t.stub.requests[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    assert.equal(told.content, 'x.ts:3: error TS2322');
  });
});

describe('runtime rpc: configure and listModels', () => {
  const t = useStubbedRuntime();

  it('overlays settings in memory; each call replaces the previous overlay; bad values name the key', async () => {
    const rt = await t.start(makeWorkspace({}, 'http://127.0.0.1:9'));
    assert.deepEqual(await rt.request('configure', { config: { ggufserver: { model: 'first' } } }), { provider: 'ggufserver', model: 'first' });
    assert.deepEqual(await rt.request('configure', { config: { provider: 'ggufserver' } }), { provider: 'ggufserver', model: 'local-gguf' });
    await assert.rejects(rt.request('configure', { config: { ggufserver: { temperature: 5 } } }), (e: { code: number; message: string }) => {
      assert.equal(e.code, -32020);
      assert.match(e.message, /"ggufserver\.temperature"/);
      return true;
    });
    assert.equal((await rt.request('getState', {})).model, 'local-gguf');
  });

  it('lists a provider\'s models when none is configured for it (current: its default model)', async () => {
    t.stub.setModels(['m-one', 'm-two']);
    const rt = await t.start(makeWorkspace({}, t.stub.origin, { vendorapi: { baseUrl: t.stub.url, apiKey: 'k-test' } }));
    const listed = await rt.request('listModels', { provider: 'vendorapi' });
    assert.deepEqual(listed.models.map((m) => m.id), ['m-one', 'm-two']);
    assert.equal(listed.current, 'gpt-4.1', 'spec 000 §2.4.3: the default is the flagship multimodal model id');
  });
});
