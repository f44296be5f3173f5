import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { makeWorkspace, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';

/** Waits for the run's end; an unexpected permission_request fails at once instead of hanging the run. */
async function endWithoutPermissionRequest(rt: RuntimeUnderTest): Promise<void> {
  const asked = rt.waitForEvent('permission_request').then((e) => {
    throw new Error(`unexpected permission_request: ${e.description}`);
  });
  asked.catch(() => undefined);
  await Promise.race([rt.waitForEvent('agent_end'), asked]);
}

/** The content of the tool result the model received in request `n`, for the tool call `callId`. */
function toolResult(requests: Array<{ body: { messages: Array<{ role: string; content: string; tool_call_id?: string }> } }>, n: number): string[] {
  return requests[n]!.body.messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e) => e.type === type);

describe('runtime rpc: directory grants reach the permission check', () => {
  const t = useStubbedRuntime();

  it('a read the host allowed once runs without a second permission request', async () => {
    const outside = makeWorkspace({ 'notes.txt': 'outside notes\n' });
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'notes.txt') } }] }, { text: 'read it' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read the notes' });
    const req = await rt.waitForEvent('directory_access_request');
    await rt.request('respondToDirectoryAccess', { requestId: req.requestId, allowed: true, scope: 'once' });
    await endWithoutPermissionRequest(rt);
    assert.match(toolResult(t.stub.requests, 1)[0]!, /outside notes/);
  });

  it('a folder allowed for the session needs neither request on the next read there', async () => {
    const outside = makeWorkspace({ 'a.txt': 'AAA\n', 'b.txt': 'BBB\n' });
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'a.txt') } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'b.txt') } }] },
      { text: 'read both' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'read both' });
    const req = await rt.waitForEvent('directory_access_request');
    await rt.request('respondToDirectoryAccess', { requestId: req.requestId, allowed: true, scope: 'session' });
    await endWithoutPermissionRequest(rt);
    assert.equal(ofType(rt.events, 'directory_access_request').length, 1);
    assert.match(toolResult(t.stub.requests, 2).join('\n'), /BBB/);
  });

  it("the agent's saved run_command output log is readable without asking", async () => {
    const tmp = realpathSync(makeTempDir('agentcli-tmp-'));
    // A realistic window: the cut command output would pass 80% of the stub provider's default 4,096 tokens and compact.
    const cwd = makeWorkspace({}, t.stub.origin, { ggufserver: { baseUrl: t.stub.origin, contextSize: 32768 }, permissions: { allow: ['Bash(seq:*)'] } });
    const rt = await t.start(cwd, { env: testEnv({ TMPDIR: tmp }) });
    const { sessionId } = await rt.request('getState', {});
    const log = path.join(tmp, 'agentcli-output', sessionId, 'call_stub_1.log');
    t.stub.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 6000' } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: log, offset: 3000, limit: 2 } }] },
      { text: 'found it' },
    );
    await rt.request('prompt', { message: 'count' });
    await endWithoutPermissionRequest(rt);
    const [commandOutput] = toolResult(t.stub.requests, 1);
    assert.ok(commandOutput?.includes(`saved to ${log}`), commandOutput);
    assert.equal(ofType(rt.events, 'directory_access_request').length, 0);
    const readEnd = rt.events.find((e) => e.type === 'tool_end' && e.toolName === 'read_file');
    assert.ok(readEnd?.type === 'tool_end' && readEnd.success, JSON.stringify(readEnd));
    assert.match(toolResult(t.stub.requests, 2)[1]!, /3000\s+3000\n.*3001\s+3001/s);
  });
});

describe('runtime rpc: permission rules in batch mode', () => {
  const t = useStubbedRuntime();

  it('an ask rule for writes raises a permission request; other writes go to the batch without one', async () => {
    const cwd = makeWorkspace({ 'src/a.ts': 'old\n' }, t.stub.origin, { permissions: { ask: ['Write(src/**)'] } });
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'notes.md', content: 'notes\n' } },
          { name: 'write_file', arguments: { path: 'src/a.ts', content: 'new\n' } },
        ],
      },
      { text: 'done' },
    );
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'write' });
    const req = await rt.waitForEvent('permission_request');
    assert.deepEqual(req.paths, ['src/a.ts']);
    assert.equal(ofType(rt.events, 'permission_request').length, 1, 'notes.md needed no request');
    await rt.request('permissionResponse', { requestId: req.requestId, allowed: true });
    const ready = await rt.waitForEvent('change_batch_ready');
    assert.deepEqual(ready.batch.changes.map((c) => c.path).sort(), ['notes.md', 'src/a.ts']);
  });

  it('a deny rule keeps a write out of the batch', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { permissions: { deny: ['Write(dist/**)'] } });
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'dist/x.js', content: 'x\n' } }] }, { text: 'denied' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'write' });
    await endWithoutPermissionRequest(rt);
    assert.match(toolResult(t.stub.requests, 1)[0]!, /denied by rule Write\(dist\/\*\*\)/);
    assert.equal(ofType(rt.events, 'change_batch_ready').length, 0);
  });
});
