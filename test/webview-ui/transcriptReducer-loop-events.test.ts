import assert from 'node:assert/strict';
import { AgentEvent } from '../../src/protocol';
import { applyEvent, createTranscript } from '../../src/shared/chat/model/transcriptReducer';

const run = { sessionId: 's1', runId: 'r1' };

describe('transcript reducer: loop strategy and plan events', () => {
  it('takes plan_update, plan_proposed and reflection without failing and without changing the transcript (no card yet)', () => {
    const events: AgentEvent[] = [
      { type: 'agent_start', ...run, prompt: 'go' },
      { type: 'plan_update', ...run, planId: 'p1', steps: [{ title: 'Read', status: 'in_progress' }], change: 'step_started', stepIndex: 0, replans: 0 },
      { type: 'plan_proposed', ...run, planId: 'p2', steps: [{ title: 'Write', status: 'pending' }], text: '1. Write' },
      { type: 'reflection', ...run, turnId: 't1', attempt: 1, maxRetries: 2, critique: 'check the path', failedTools: ['read_file'] },
    ];
    // Every one is a valid protocol event (what the runtime sends).
    for (const e of events) assert.equal(AgentEvent.safeParse(e).success, true, e.type);
    const m = createTranscript();
    applyEvent(m, events[0]!);
    const before = JSON.stringify(m.items);
    for (const e of events.slice(1)) {
      const changes = applyEvent(m, e);
      assert.deepEqual(changes.ids, [], e.type);
    }
    assert.equal(JSON.stringify(m.items), before);
  });
});
