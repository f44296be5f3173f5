import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AgentEvent, EventOf } from '../../src/sdk';
import { initRepo } from '../runtime/automode/git-fixture';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

describe('sdk: auto-mode through Agent', function () {
  const t = useStubAndAgent(this);

  it('starts in a worktree, reports typed events, status and log, and the final batch is decided like any other', async () => {
    const cwd = makeWorkspace({ 'app.txt': 'one\n' }, t.stub.origin);
    initRepo(cwd);
    t.stub.enqueue(
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'app.txt', old_text: 'one', new_text: 'two' } }, { name: 'complete_task', arguments: { summary: 'one became two' } }] },
      { text: 'done' },
    );
    const agent = await t.create(testAgentOptions(cwd));
    const events: AgentEvent[] = [];
    const complete = new Promise<EventOf<'automode_complete'>>((resolve) => {
      agent.client.onEvent((e) => {
        events.push(e);
        if (e.type === 'automode_complete') resolve(e);
      });
    });
    const { sessionId } = await agent.startAutomode({ prompt: 'make it two', maxIterations: 2, useWorktree: true });
    const done = await complete;
    assert.equal(done.sessionId, sessionId);
    assert.equal(done.reason, 'goal_met');
    const iteration = events.find((e): e is EventOf<'automode_iteration'> => e.type === 'automode_iteration');
    assert.equal(iteration?.summary, 'one became two');
    const status = await agent.getAutomodeStatus();
    assert.equal(status.state, 'completed');
    assert.match(status.branch ?? '', /^agentcli\/auto-/);
    const log = await agent.getAutomodeLog();
    assert.deepEqual(log.iterations[0]?.toolCalls.map((c) => [c.tool, c.success]), [['edit_file', true], ['complete_task', true]]);
    assert.equal(readFileSync(path.join(cwd, 'app.txt'), 'utf8'), 'one\n', 'nothing applied before the decision');
    const decided = await agent.decideChanges({ batchId: done.batch!.id, decision: 'accept_all' });
    assert.equal(decided.results[0]?.status, 'applied');
    assert.equal(readFileSync(path.join(cwd, 'app.txt'), 'utf8'), 'two\n');
    // Pause, resume and cancel with nothing running answer the status.
    assert.equal((await agent.pauseAutomode()).active, false);
    assert.equal((await agent.resumeAutomode()).state, 'completed');
    assert.equal((await agent.cancelAutomode()).state, 'completed');
  });
});
