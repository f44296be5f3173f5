import assert from 'node:assert/strict';
import { Agent, PermissionCallbackError, type PermissionDecision, type PermissionRequest } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** Permission handling through `onPermissionRequest`, against the real runtime in interactive mode. */
describe('sdk permissions against the real runtime', function () {
  const t = useStubAndAgent(this);

  const commandTurn = () =>
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo sdk-permission-ok' } }] }, { text: 'finished' });
  const toolMessage = (requestIndex: number): string =>
    (t.stub.requests[requestIndex]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')!.content;

  const startWith = async (onPermissionRequest: (r: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>) => {
    const cwd = makeWorkspace({}, t.stub.origin);
    return t.create(testAgentOptions(cwd, { permissionMode: 'interactive', onPermissionRequest }));
  };

  it('allow via the callback runs the tool', async () => {
    const requests: PermissionRequest[] = [];
    const a = await startWith(async (r) => {
      requests.push(r);
      return { allow: true, scope: 'once' };
    });
    commandTurn();
    const result = await a.run('say ok');
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.tool, 'run_command');
    assert.match(requests[0]!.description + (requests[0]!.command ?? ''), /echo sdk-permission-ok/);
    const watched = ['permission_request', 'permission_resolved', 'tool_start', 'tool_end'];
    const order = result.events.map((e) => e.type).filter((t) => watched.includes(t));
    assert.deepEqual(order, watched, 'the request is answered before the tool runs');
    const resolved = result.events.find((e) => e.type === 'permission_resolved');
    assert.equal(resolved?.type === 'permission_resolved' && resolved.outcome, 'allowed');
    assert.equal(result.steps[0]!.toolResults[0]!.success, true);
    assert.match(toolMessage(1), /sdk-permission-ok/);
  });

  it('deny via the callback refuses the tool and the model is told', async () => {
    const a = await startWith(() => 'deny');
    commandTurn();
    const result = await a.run('say ok');
    const resolved = result.events.find((e) => e.type === 'permission_resolved');
    assert.equal(resolved?.type === 'permission_resolved' && resolved.outcome, 'denied');
    assert.equal(result.steps[0]!.toolResults[0]!.success, false);
    assert.match(toolMessage(1), /denied/);
    assert.doesNotMatch(toolMessage(1), /^sdk-permission-ok/m);
    assert.equal(result.status, 'completed');
  });

  it('deny with an alternative passes the instruction to the model', async () => {
    const a = await startWith(() => ({ allow: false, alternative: 'read the README instead' }));
    commandTurn();
    await a.run('say ok');
    assert.match(toolMessage(1), /read the README instead/);
  });

  it('undefined leaves the request to the host, which answers with allowPermission', async () => {
    const a: Agent = await startWith((r) => {
      setTimeout(() => void a.allowPermission(r.requestId), 50);
      return undefined;
    });
    commandTurn();
    const result = await a.run('say ok');
    assert.match(toolMessage(1), /sdk-permission-ok/);
    assert.equal(result.status, 'completed');
  });

  it('a throwing callback denies the request and fails the run with PermissionCallbackError', async () => {
    const a = await startWith(() => {
      throw new Error('callback bug');
    });
    commandTurn();
    await assert.rejects(a.run('say ok'), (e: unknown) => e instanceof PermissionCallbackError && /callback bug/.test(e.message));
    assert.match(toolMessage(1), /denied/);
  });

  it('abort while a permission request is open cancels it and ends the run as aborted', async () => {
    let opened!: () => void;
    const requested = new Promise<void>((r) => (opened = r));
    const a = await startWith(() => {
      opened();
      return undefined;
    });
    commandTurn();
    const run = a.send('say ok');
    await requested;
    await run.abort();
    const result = await run.wait();
    assert.equal(result.status, 'aborted');
    const resolved = result.events.find((e) => e.type === 'permission_resolved');
    assert.equal(resolved?.type === 'permission_resolved' && resolved.outcome, 'cancelled');
    assert.equal(result.events.some((e) => e.type === 'tool_end' && e.success), false);
  });
});
