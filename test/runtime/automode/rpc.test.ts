import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent } from '../../../src/protocol';
import { makeWorkspace, startRuntime, testEnv, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';
import { gitIn, initRepo, statusOf } from './git-fixture';

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

/** Polls getAutomodeStatus until `pred` holds (state changes at boundaries happen after the events that cause them). */
async function statusWhen(rt: RuntimeUnderTest, pred: (s: Awaited<ReturnType<RuntimeUnderTest['request']>> & { state?: string }) => boolean) {
  for (let i = 0; i < 200; i++) {
    const s = await rt.request('getAutomodeStatus', {});
    if (pred(s as never)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`auto-mode status never matched; last: ${JSON.stringify(await rt.request('getAutomodeStatus', {}))}`);
}

/** The text of the last user message of model request `n`. */
function lastUserMessage(requests: Array<{ body: { messages: Array<{ role: string; content: string }> } }>, n: number): string {
  return requests[n]!.body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
}

describe('runtime rpc: auto-mode', () => {
  const t = useStubbedRuntime();

  it('startAutomode answers before the first iteration ends; cancel aborts the iteration and ends the run cancelled', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'thinking about it', hang: true });
    const rt = await t.start(cwd);
    const before = await rt.request('getAutomodeStatus', {});
    assert.equal(before.active, false);
    assert.equal(before.state, undefined);
    const { sessionId } = await rt.request('startAutomode', { prompt: 'make the tests pass', maxIterations: 3 });
    await rt.waitForEvent('message_update');
    const running = await rt.request('getAutomodeStatus', {});
    assert.equal(running.active, true);
    assert.equal(running.state, 'running');
    assert.equal(running.iteration, 1);
    assert.equal(running.maxIterations, 3);
    assert.equal(running.sessionId, sessionId);
    assert.ok(running.startedAt && !Number.isNaN(Date.parse(running.startedAt)));
    assert.deepEqual(ofType(rt.events, 'automode_iteration'), [], 'the first iteration has not ended');
    await rt.request('cancelAutomode', {});
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.state, 'cancelled');
    assert.equal(done.reason, 'cancelled');
    const end = ofType(rt.events, 'agent_end')[0];
    assert.equal(end?.status, 'aborted');
    const after = await rt.request('getAutomodeStatus', {});
    assert.equal(after.state, 'cancelled');
    assert.equal(after.active, false);
    assert.equal(t.stub.requests.length, 1, 'no iteration after the cancel');
  });

  it('pause takes effect at the iteration boundary, resume continues; complete_task ends the run; the log has the tool calls', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo automode-says-hi' } }] },
      { text: 'ran the echo' },
      { toolCalls: [{ name: 'complete_task', arguments: { summary: 'echoed and checked' } }] },
      { text: 'done' },
    );
    const rt = await t.start(cwd); // interactive mode: the command needs an approval, as in a normal run
    await rt.request('startAutomode', { prompt: 'say hi', maxIterations: 5 });
    const ask = await rt.waitForEvent('permission_request');
    const paused = await rt.request('pauseAutomode', {});
    assert.equal(paused.state, 'running', 'the iteration under way goes on');
    await rt.request('permissionResponse', { requestId: ask.requestId, allowed: true, scope: 'once' });
    const first = await rt.waitForEvent('automode_iteration');
    assert.equal(first.iteration, 1);
    assert.equal(first.summary, 'ran the echo');
    assert.equal(first.toolCalls, 1);
    await statusWhen(rt, (s) => s.state === 'paused');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(t.stub.requests.length, 2, 'no second iteration while paused');
    const resumed = await rt.request('resumeAutomode', {});
    assert.equal(resumed.state, 'running');
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'goal_met');
    assert.equal(done.state, 'completed');
    assert.equal(done.summary, 'echoed and checked');
    assert.equal(done.iterations, 2);
    const secondPrompt = lastUserMessage(t.stub.requests, 2);
    assert.match(secondPrompt, /iteration 2 of at most 5/);
    assert.match(secondPrompt, /ran the echo/, 'the prompt says what the last iteration did');
    assert.match(secondPrompt, /run_command echo automode-says-hi: ok/);
    const offered = t.stub.requests[0]!.body.tools.map((x: { function: { name: string } }) => x.function.name);
    assert.ok(offered.includes('complete_task'), offered.join(', '));
    const log = await rt.request('getAutomodeLog', {});
    assert.equal(log.iterations.length, 2);
    const [one, two] = log.iterations;
    assert.equal(one!.toolCalls[0]!.tool, 'run_command');
    assert.deepEqual(one!.toolCalls[0]!.args, { command: 'echo automode-says-hi' });
    assert.equal(one!.toolCalls[0]!.success, true);
    assert.match(one!.toolCalls[0]!.output ?? '', /automode-says-hi/);
    assert.equal(two!.toolCalls[0]!.tool, 'complete_task');
    assert.equal(two!.summary, 'echoed and checked');
    assert.equal(log.status.state, 'completed');
    // A normal prompt works again afterwards, without complete_task.
    t.stub.enqueue({ text: 'plain' });
    await rt.request('prompt', { message: 'hello' });
    await rt.waitForEvent('agent_end', (e) => e.text === 'plain');
    const later = t.stub.requests.at(-1)!.body.tools.map((x: { function: { name: string } }) => x.function.name);
    assert.ok(!later.includes('complete_task'));
  });

  it('ends at maxIterations; a failed tool call is in the log with its error', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
      { text: 'step one: the file is missing' },
      { text: 'step two' },
    );
    const rt = await t.start(cwd);
    await rt.request('startAutomode', { prompt: 'look around', maxIterations: 2 });
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'max_iterations');
    assert.equal(done.state, 'completed');
    assert.equal(ofType(rt.events, 'automode_iteration').length, 2);
    const log = await rt.request('getAutomodeLog', {});
    const call = log.iterations[0]!.toolCalls[0]!;
    assert.equal(call.success, false);
    assert.match(call.error ?? '', /missing\.txt/);
    assert.match(lastUserMessage(t.stub.requests, 2), /read_file missing\.txt: failed/);
    const again = await rt.request('getAutomodeStatus', {});
    assert.equal(again.iteration, 2);
  });

  it('without a worktree each iteration edits are a change batch; the next iteration starts once it is decided', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a2\n' } }] },
      { text: 'wrote a2' },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }, { name: 'complete_task', arguments: { summary: 'a is a2' } }] },
      { text: 'ok' },
    );
    const rt = await t.start(cwd);
    const { sessionId } = await rt.request('startAutomode', { prompt: 'make a2', maxIterations: 3 });
    assert.equal(sessionId, (await rt.request('getState', {})).sessionId, 'the iterations run in the session itself');
    const ready = await rt.waitForEvent('change_batch_ready');
    await rt.waitForEvent('automode_iteration');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(t.stub.requests.length, 2, 'the second iteration waits for the decision');
    assert.equal(readFileSync(path.join(cwd, 'a.txt'), 'utf8'), 'a\n');
    assert.equal((await rt.request('getAutomodeStatus', {})).state, 'running');
    await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'goal_met');
    assert.equal(done.batch, undefined);
    const log = await rt.request('getAutomodeLog', {});
    assert.match(log.iterations[1]!.toolCalls[0]!.output ?? '', /a2/, 'the second iteration read the applied edit');
  });

  it('useWorktree outside a git repository is a clear error', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const rt = await t.start(cwd);
    await assert.rejects(rt.request('startAutomode', { prompt: 'x', useWorktree: true }), (e: Error & { code?: number }) => {
      assert.match(e.message, /needs a git repository.*git init/);
      return true;
    });
    assert.equal((await rt.request('getAutomodeStatus', {})).active, false);
  });

  it('with a worktree: edits land only on the branch, the batch equals the branch diff, accepting applies it here', async () => {
    const cwd = makeWorkspace({ 'src/app.txt': 'version 1\n', 'README.md': 'readme\n' }, t.stub.origin);
    initRepo(cwd);
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'src/app.txt', content: 'version 2\n' } }, { name: 'write_file', arguments: { path: 'NEW.md', content: 'new file\n' } }] },
      { text: 'edited app and added NEW.md' },
      { toolCalls: [{ name: 'delete_file', arguments: { path: 'README.md' } }, { name: 'complete_task', arguments: { summary: 'app bumped, readme replaced' } }] },
      { text: 'finished' },
    );
    const rt = await t.start(cwd);
    const { sessionId } = await rt.request('startAutomode', { prompt: 'bump the app', maxIterations: 4, useWorktree: true });
    const status = await rt.request('getAutomodeStatus', {});
    assert.match(status.branch ?? '', /^agentcli\/auto-/);
    assert.ok(status.worktree && existsSync(status.worktree));
    assert.ok(!status.worktree.startsWith(cwd), 'the worktree is outside the user repository');
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'goal_met');
    assert.equal(done.sessionId, sessionId);
    assert.deepEqual(ofType(rt.events, 'permission_request'), [], 'writes in the worktree need no approval');
    // The user's tree is untouched.
    assert.equal(statusOf(cwd), '');
    assert.equal(readFileSync(path.join(cwd, 'src/app.txt'), 'utf8'), 'version 1\n');
    // The branch holds the work, one commit per iteration that changed something.
    const branch = status.branch!;
    assert.equal(gitIn(cwd, 'show', `${branch}:src/app.txt`), 'version 2\n');
    assert.equal(gitIn(cwd, 'rev-list', '--count', `main..${branch}`).trim(), '2');
    const changed = gitIn(cwd, 'diff', '--name-status', 'main', branch).trim().split('\n').sort();
    assert.deepEqual(changed, ['A\tNEW.md', 'D\tREADME.md', 'M\tsrc/app.txt']);
    // The batch offered in the user's session is the branch's diff.
    const batch = done.batch!;
    assert.ok(batch, 'automode_complete carries the batch');
    const ready = await rt.waitForEvent('change_batch_ready');
    assert.equal(ready.batch.id, batch.id);
    assert.deepEqual(batch.changes.map((c) => `${c.kind} ${c.path}`).sort(), ['create NEW.md', 'delete README.md', 'modify src/app.txt']);
    const { contents } = await rt.request('getChangeContents', { batchId: batch.id });
    for (const c of contents) {
      const onBranch = c.proposedContent === null ? null : gitIn(cwd, 'show', `${branch}:${c.path}`);
      assert.equal(c.proposedContent, onBranch, c.path);
      const onMain = c.originalContent === null ? null : gitIn(cwd, 'show', `main:${c.path}`);
      assert.equal(c.originalContent, onMain, c.path);
    }
    const state = await rt.request('getState', {});
    assert.equal(state.pendingBatch?.id, batch.id);
    const decided = await rt.request('decideChanges', { batchId: batch.id, decision: 'accept_all' });
    assert.ok(decided.results.every((r) => r.status === 'applied'), JSON.stringify(decided.results));
    assert.equal(readFileSync(path.join(cwd, 'src/app.txt'), 'utf8'), 'version 2\n');
    assert.equal(readFileSync(path.join(cwd, 'NEW.md'), 'utf8'), 'new file\n');
    assert.ok(!existsSync(path.join(cwd, 'README.md')));
    gitIn(cwd, 'add', '-A');
    assert.equal(gitIn(cwd, 'diff', '--cached', branch).trim(), '', 'the workspace now matches the branch');
    const final = await rt.request('getAutomodeStatus', {});
    assert.equal(final.batchId, batch.id);
    assert.equal(final.state, 'completed');
  });

  it('a command of the run that points the worktree .git elsewhere does not steer the runtime commits', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    initRepo(cwd);
    // The run's own command replaces the worktree's .git pointer with one to an empty folder of its making.
    const redirect = 'mkdir -p fakegit && printf "gitdir: fakegit\\n" > .git && cat .git';
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a2\n' } }, { name: 'run_command', arguments: { command: redirect } }] },
      { toolCalls: [{ name: 'complete_task', arguments: { summary: 'a changed' } }] },
      { text: 'ok' },
    );
    const rt = await t.start(cwd, { args: ['--permission-mode', 'unrestricted'] });
    const { sessionId } = await rt.request('startAutomode', { prompt: 'change a', maxIterations: 2, useWorktree: true });
    const status = await rt.request('getAutomodeStatus', {});
    // Writing a .git file is a risky command: it asks even in unrestricted mode, and here a person allows it.
    const ask = await rt.waitForEvent('permission_request');
    assert.equal(ask.sessionId, sessionId);
    await rt.request('permissionResponse', { requestId: ask.requestId, allowed: true, scope: 'once' });
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'goal_met', JSON.stringify(ofType(rt.events, 'automode_error')));
    const command = ofType(rt.events, 'tool_end').find((e) => e.toolName === 'run_command');
    assert.equal(command?.sessionId, sessionId);
    assert.equal(command?.success, true, command?.error);
    assert.match(command?.output ?? '', /gitdir: fakegit/);
    assert.equal(gitIn(cwd, 'show', `${status.branch}:a.txt`), 'a2\n', 'the commit landed on the branch');
    assert.equal(statusOf(cwd), '');
  });

  it('the worktree session asks through the user session, and follows a permission mode the host sets between iterations', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    initRepo(cwd);
    t.stub.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo first > first.txt' } }] },
      { text: 'first done' },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo second > second.txt' } }, { name: 'complete_task', arguments: { summary: 'both written' } }] },
      { text: 'ok' },
    );
    const rt = await t.start(cwd); // interactive: the first command asks
    await rt.request('startAutomode', { prompt: 'write two files', maxIterations: 2, useWorktree: true });
    await rt.request('pauseAutomode', {});
    const ask = await rt.waitForEvent('permission_request');
    assert.equal((await rt.request('getState', {})).pendingPermissions[0]?.requestId, ask.requestId, 'the user session lists it');
    await rt.request('permissionResponse', { requestId: ask.requestId, allowed: true, scope: 'once' });
    await statusWhen(rt, (s) => s.state === 'paused');
    await rt.request('setPermissionMode', { mode: 'unrestricted' });
    await rt.request('resumeAutomode', {});
    const done = await rt.waitForEvent('automode_complete');
    assert.equal(done.reason, 'goal_met');
    assert.equal(ofType(rt.events, 'permission_request').length, 1, 'the second command ran without asking');
    const status = await rt.request('getAutomodeStatus', {});
    assert.equal(gitIn(cwd, 'show', `${status.branch}:second.txt`), 'second\n');
    assert.equal(statusOf(cwd), '');
  });

  it('a session in a subfolder of the repository: the batch holds that folder\'s changes, relative to it', async () => {
    const repo = makeWorkspace({ 'pkg/a.txt': 'a\n', 'other/b.txt': 'b\n' });
    mkdirSync(path.join(repo, 'pkg', '.agentcli'), { recursive: true });
    writeFileSync(path.join(repo, 'pkg', '.agentcli', 'config.json'), JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: t.stub.origin } }));
    initRepo(repo);
    const cwd = path.join(repo, 'pkg');
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'a2\n' } }, { name: 'complete_task', arguments: { summary: 'a changed' } }] },
      { text: 'ok' },
    );
    const rt = await t.start(cwd);
    await rt.request('startAutomode', { prompt: 'change a', maxIterations: 1, useWorktree: true });
    const status = await rt.request('getAutomodeStatus', {});
    const done = await rt.waitForEvent('automode_complete');
    assert.deepEqual(done.batch?.changes.map((c) => [c.path, c.absolutePath]), [['a.txt', path.join(cwd, 'a.txt')]]);
    assert.equal(gitIn(repo, 'show', `${status.branch}:pkg/a.txt`), 'a2\n');
    assert.equal(statusOf(repo), '');
  });

  it('a runtime killed during auto-mode leaves the worktree, and the next runtime reports it interrupted', async () => {
    const cwd = makeWorkspace({ 'a.txt': 'a\n' }, t.stub.origin);
    initRepo(cwd);
    const env = testEnv();
    t.stub.enqueue({ text: 'working', hang: true });
    const first = await startRuntime(cwd, { env });
    try {
      await first.request('startAutomode', { prompt: 'long job', maxIterations: 4, useWorktree: true });
      await first.waitForEvent('message_update');
      const running = await first.request('getAutomodeStatus', {});
      first.proc.kill('SIGKILL');
      await new Promise((r) => first.proc.once('exit', r));
      const second = await t.start(cwd, { env });
      const status = await second.request('getAutomodeStatus', {});
      assert.equal(status.active, false);
      assert.equal(status.state, 'failed');
      assert.equal(status.interrupted, true);
      assert.equal(status.worktree, running.worktree);
      assert.equal(status.branch, running.branch);
      assert.match(status.error ?? '', /stopped during iteration 1 of 4/);
      assert.ok(existsSync(running.worktree!), 'the worktree is left');
      assert.match(gitIn(cwd, 'branch', '--list', running.branch!), /agentcli\/auto-/);
      const log = await second.request('getAutomodeLog', {});
      assert.equal(log.iterations.length, 1);
      // A new run can start.
      t.stub.enqueue({ toolCalls: [{ name: 'complete_task', arguments: { summary: 'quick' } }] }, { text: 'ok' });
      await second.request('startAutomode', { prompt: 'short job', maxIterations: 1 });
      const done = await second.waitForEvent('automode_complete');
      assert.equal(done.reason, 'goal_met');
    } finally {
      await first.close();
    }
  });
});
