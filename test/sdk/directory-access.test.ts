import assert from 'node:assert/strict';
import path from 'node:path';
import { Agent, DirectoryAccessCallbackError, type AgentOptions, type DirectoryAccessRequest } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** Directory-access requests (a read outside the workspace) answered through the Agent, against the real runtime. */
describe('sdk directory access against the real runtime', function () {
  const t = useStubAndAgent(this);
  let outside: string;
  beforeEach(() => {
    outside = makeWorkspace({ 'secret.txt': 'TOP-SECRET-CONTENT' }, t.stub.origin);
  });

  const readOutside = () =>
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: path.join(outside, 'secret.txt') } }] }, { text: 'done' });
  const toolMessage = (): string =>
    (t.stub.requests[1]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool')!.content;
  const resolvedOutcome = (events: ReadonlyArray<{ type: string }>) =>
    (events.find((e) => e.type === 'directory_access_resolved') as { outcome?: string } | undefined)?.outcome;
  const start = async (extra: Partial<AgentOptions>) => {
    return t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { permissionMode: 'interactive', ...extra }));
  };

  it('onDirectoryAccess allowing lets the tool read outside the workspace', async () => {
    const requests: DirectoryAccessRequest[] = [];
    const a = await start({
      onDirectoryAccess: (r) => {
        requests.push(r);
        return { allow: true, scope: 'session' };
      },
      onPermissionRequest: () => 'allow',
    });
    readOutside();
    const result = await a.run('read the secret');
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.path, outside);
    assert.equal(resolvedOutcome(result.events), 'allowed');
    assert.match(toolMessage(), /TOP-SECRET-CONTENT/);
  });

  it('onDirectoryAccess denying keeps the tool away and the model is told', async () => {
    const a = await start({ onDirectoryAccess: () => 'deny' });
    readOutside();
    const result = await a.run('read the secret');
    assert.equal(resolvedOutcome(result.events), 'denied');
    assert.doesNotMatch(toolMessage(), /TOP-SECRET-CONTENT/);
    assert.match(toolMessage(), /denied/);
    assert.equal(result.status, 'completed');
  });

  it('undefined leaves the request to the host, which answers with allowDirectory', async () => {
    const a: Agent = await start({
      onDirectoryAccess: (r) => {
        setTimeout(() => void a.allowDirectory(r.requestId), 50);
        return undefined;
      },
      onPermissionRequest: () => 'allow',
    });
    readOutside();
    const result = await a.run('read the secret');
    assert.equal(resolvedOutcome(result.events), 'allowed');
    assert.match(toolMessage(), /TOP-SECRET-CONTENT/);
  });

  it('the host can deny later with denyDirectory', async () => {
    const a: Agent = await start({
      onDirectoryAccess: (r) => {
        setTimeout(() => void a.denyDirectory(r.requestId), 50);
        return undefined;
      },
    });
    readOutside();
    assert.equal(resolvedOutcome((await a.run('read the secret')).events), 'denied');
  });

  it('without a callback the request is denied (not left hanging) and a note is traced', async () => {
    const notes: string[] = [];
    const a = await start({
      onTrace: (_dir, msg) => {
        const note = (msg as { note?: string }).note;
        if (note) notes.push(note);
      },
    });
    readOutside();
    const result = await a.run('read the secret');
    assert.equal(resolvedOutcome(result.events), 'denied');
    assert.doesNotMatch(toolMessage(), /TOP-SECRET-CONTENT/);
    assert.equal(notes.length, 1);
    assert.match(notes[0]!, /denied: no onDirectoryAccess callback/);
    assert.match(toolMessage(), /no one is available to approve/, 'the model is not told that a user refused');
    assert.doesNotMatch(toolMessage(), /by the user/);
  });

  it('without a callback in unrestricted mode the access is allowed once, like the runtime does without a user', async () => {
    const a = await start({ permissionMode: 'unrestricted' });
    readOutside();
    const result = await a.run('read the secret');
    assert.equal(resolvedOutcome(result.events), 'allowed');
    assert.match(toolMessage(), /TOP-SECRET-CONTENT/);
  });

  it('a throwing callback denies the request and fails the run with DirectoryAccessCallbackError', async () => {
    const a = await start({
      onDirectoryAccess: () => {
        throw new Error('directory callback bug');
      },
    });
    readOutside();
    await assert.rejects(a.run('read the secret'), (e: unknown) => e instanceof DirectoryAccessCallbackError && /directory callback bug/.test(e.message));
    assert.match(toolMessage(), /denied/);
  });
});
