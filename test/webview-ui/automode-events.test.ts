import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/protocol';
import { applyEvent, createTranscript } from '../../src/shared/chat/model/transcriptReducer';

// Auto mode shows in the status bar and its log (src/extension/automode/): the transcript takes its events without failing or inventing items.
describe('transcript reducer: auto-mode events', () => {
  it('automode_iteration, automode_complete and automode_error change nothing and do not throw', () => {
    const m = createTranscript();
    const events: AgentEvent[] = [
      { type: 'automode_iteration', sessionId: 's2', iteration: 1, maxIterations: 3, runId: 'r9', status: 'completed', summary: 'did a thing', toolCalls: 2 },
      {
        type: 'automode_complete',
        sessionId: 's2',
        state: 'completed',
        reason: 'goal_met',
        iterations: 1,
        summary: 'done',
        branch: 'agentcli/auto-1',
        worktree: '/w',
        batch: { id: 'b', runId: 'r9', status: 'pending', changes: [] },
      },
      { type: 'automode_error', sessionId: 's2', iteration: 2, error: 'git failed' },
    ];
    for (const e of events) {
      const changes = applyEvent(m, e);
      assert.deepEqual(changes.ids, []);
    }
    assert.equal(m.items.length, 0);
  });
});
