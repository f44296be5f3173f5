/**
 * Fast in-process tests of the agent core (the loop, permissions, change batches) with a scripted provider: no
 * process, no server. The real-process tests under test/runtime/rpc and test/runtime/cli cover the same paths end
 * to end; these run in milliseconds and pin the core's behaviour.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AgentEvent } from '../../../src/protocol';
import { Session } from '../../../src/runtime/agent/session';
import { defaultConfig } from '../../../src/runtime/config/schema';
import { makeTempDir } from '../../helpers/temp-dir';
import { scriptedProvider, type ScriptedReply } from './scripted-provider';

function setup(replies: ScriptedReply[], opts: { permissionMode?: 'interactive' | 'unrestricted' } = {}) {
  const cwd = makeTempDir('agentcli-core-');
  const home = makeTempDir('agentcli-core-home-');
  writeFileSync(path.join(cwd, 'a.txt'), 'old\n');
  const events: AgentEvent[] = [];
  const provider = scriptedProvider(replies);
  const config = defaultConfig();
  config.sandbox.mode = 'off'; // no command runs here; keep the probe out of the way
  const session = new Session({
    cwd,
    home,
    config,
    projectConfigFile: path.join(cwd, '.agentcli', 'config.json'),
    host: { interactive: true, emit: (e) => events.push(AgentEvent.parse(e)) }, // every event must be valid on the wire
    batchMode: true,
    permissionMode: opts.permissionMode ?? 'interactive',
    providerFactory: () => provider,
  });
  return { cwd, session, events, provider, of: <T extends AgentEvent['type']>(t: T) => events.filter((e) => e.type === t) as Extract<AgentEvent, { type: T }>[] };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('agent core in process (scripted provider)', () => {
  it('streams a text answer with the spec event order and records the request', async () => {
    const t = setup([{ text: 'Hello from the scripted model.' }]);
    const run = t.session.startRun({ message: 'hi' });
    const outcome = await run.done;
    assert.equal(outcome.status, 'completed');
    const types = t.events.map((e) => e.type).filter((x) => !['message_update'].includes(x));
    assert.deepEqual(types.slice(0, 4), ['agent_start', 'turn_start', 'message_start', 'message_end']);
    assert.equal(t.of('message_end')[0]?.content, 'Hello from the scripted model.');
    assert.equal(t.provider.requests[0]?.messages.at(-1)?.content.includes('hi'), true);
  });

  it('proposes a write as a change batch that lands on disk only when accepted', async () => {
    const t = setup([{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'new\n' } }] }, { text: 'written' }]);
    await t.session.startRun({ message: 'change a.txt' }).done;
    assert.equal(readFileSync(path.join(t.cwd, 'a.txt'), 'utf8'), 'old\n', 'nothing is written before the decision');
    const ready = t.of('change_batch_ready')[0];
    assert.ok(ready, 'a batch is ready at the end of the run');
    assert.deepEqual(ready.batch.changes.map((c) => [c.path, c.kind]), [['a.txt', 'modify']]);
    const decided = await t.session.decideChanges(ready.batch.id, 'accept_all');
    assert.deepEqual(decided.results.map((r) => r.status), ['applied']);
    assert.equal(readFileSync(path.join(t.cwd, 'a.txt'), 'utf8'), 'new\n');
  });

  it('asks before a command; a denial with an alternative reaches the model in the next request', async () => {
    const t = setup([{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] }, { text: 'ok, not running it' }]);
    const run = t.session.startRun({ message: 'say hi' });
    await until(() => t.of('permission_request').length === 1, 'the permission request');
    const request = t.of('permission_request')[0]!;
    assert.equal(request.command, 'echo hi');
    assert.deepEqual(t.session.state().pendingPermissions.map((p) => [p.requestId, p.choices]), [[request.requestId, request.choices]]);
    t.session.pending.answer(request.requestId, 'permission', { allowed: false, scope: 'once', alternative: 'edit b.txt instead' });
    await run.done;
    const toolMessage = t.provider.requests[1]?.messages.find((m) => m.role === 'tool');
    assert.match(toolMessage?.content ?? '', /asks you to do this instead: edit b\.txt instead/);
    assert.equal(t.of('tool_end')[0]?.success, false);
  });

  it('abort cancels a pending permission and ends the run as aborted', async () => {
    const t = setup([{ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hi' } }] }]);
    const run = t.session.startRun({ message: 'say hi' });
    await until(() => t.of('permission_request').length === 1, 'the permission request');
    t.session.abort();
    assert.equal((await run.done).status, 'aborted');
    assert.deepEqual(t.of('permission_resolved').map((e) => e.outcome), ['cancelled']);
    assert.deepEqual(t.session.state().pendingPermissions, []);
  });
});
