import assert from 'node:assert/strict';
import { completionText, logMarkdown, parseMaxIterations, statusBarText } from '../../src/extension/automode/automode-text';

describe('extension auto mode: texts', () => {
  it('accepts a custom iteration count from 1 to 1000 only', () => {
    assert.deepEqual(parseMaxIterations(' 15 '), { value: 15 });
    assert.deepEqual(parseMaxIterations('0'), { error: 'At least 1 iteration' });
    assert.deepEqual(parseMaxIterations('1001'), { error: 'At most 1000 iterations' });
    assert.deepEqual(parseMaxIterations('2.5'), { error: 'Type a whole number of iterations, e.g. 15' });
    assert.deepEqual(parseMaxIterations(''), { error: 'Type a whole number of iterations, e.g. 15' });
  });

  it('shows the iteration under way while running, a pause sign when paused, nothing when not active', () => {
    const base = { active: true, iteration: 3, maxIterations: 10, goal: 'make the tests pass' };
    assert.equal(statusBarText({ ...base, state: 'running' })?.text, '$(sync~spin) Auto 3/10');
    assert.equal(statusBarText({ ...base, iteration: 0, state: 'running' })?.text, '$(sync~spin) Auto 1/10', 'before the first iteration starts');
    assert.match(statusBarText({ ...base, state: 'running', branch: 'agentcli/auto-1' })?.tooltip ?? '', /iteration 3 of at most 10 in the worktree branch agentcli\/auto-1: make the tests pass/);
    assert.equal(statusBarText({ ...base, state: 'paused' })?.text, '$(debug-pause) Auto 3/10');
    assert.equal(statusBarText({ ...base, active: false, state: 'completed' }), undefined);
    assert.equal(statusBarText({ active: false, iteration: 0, maxIterations: 0 }), undefined);
  });

  it('says how the run ended, with its summary and branch', () => {
    assert.equal(completionText({ reason: 'goal_met', iterations: 2, summary: 'All tests pass.\nmore', branch: 'agentcli/auto-1' }), 'Auto mode finished the goal after 2 iterations. All tests pass. Its work is on the branch agentcli/auto-1.');
    assert.equal(completionText({ reason: 'max_iterations', iterations: 1, summary: '' }), 'Auto mode stopped after 1 iteration, its limit, before the goal was met.');
    assert.equal(completionText({ reason: 'cancelled', iterations: 3, summary: 'cancelled' }), 'Auto mode was cancelled after 3 iterations.');
  });

  it('renders the log as markdown: status, iterations, tool calls with results, errors; output in a fence that cannot be closed from inside', () => {
    const md = logMarkdown({
      status: { active: false, state: 'completed', iteration: 2, maxIterations: 5, goal: 'fix it', branch: 'agentcli/auto-1', worktree: '/w/wt', summary: 'done' },
      iterations: [
        { iteration: 1, runId: 'r1', startedAt: 't', status: 'completed', summary: 'Read the code.', toolCalls: [{ tool: 'run_command', args: { command: 'npm test' }, success: false, output: 'has ``` inside' }], errors: ['tests failed'] },
        { iteration: 2, runId: 'r2', startedAt: 't', summary: '', toolCalls: [], errors: [] },
      ],
    });
    assert.match(md, /^# Auto mode log\n\n\*\*Goal:\*\* fix it\n\n- \*\*State:\*\* completed — iteration 2 of at most 5/);
    assert.match(md, /- \*\*Branch:\*\* `agentcli\/auto-1` \(worktree `\/w\/wt`\)/);
    assert.match(md, /## Iteration 1 — completed\n\nRead the code\.\n\n- ✗ `run_command` \{"command":"npm test"\}/);
    assert.match(md, /````\nhas ``` inside\n````/);
    assert.match(md, /> \*\*Error:\*\* tests failed/);
    assert.match(md, /## Iteration 2 — running/);
    assert.match(logMarkdown({ status: { active: false, iteration: 0, maxIterations: 0 }, iterations: [] }), /No auto-mode run yet/);
  });
});
