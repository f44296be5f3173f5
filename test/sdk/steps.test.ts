import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/protocol';
import { StepCollector } from '../../src/sdk/steps';

const ids = { sessionId: 's', runId: 'r' };

describe('sdk step collection from events', () => {
  it('takes steps from step_end when the runtime sends it', () => {
    const c = new StepCollector();
    const step = { stepNumber: 1, toolCalls: [{ tool: 'read_file', args: { path: 'a' } }], toolResults: [{ tool: 'read_file', success: true, output: 'A' }] };
    const events: AgentEvent[] = [
      { type: 'tool_start', ...ids, turnId: 't1', toolCallId: 'c1', toolName: 'read_file', args: { path: 'a' } },
      { type: 'tool_end', ...ids, turnId: 't1', toolCallId: 'c1', toolName: 'read_file', durationMs: 1, success: true, output: 'A' },
      { type: 'step_end', ...ids, turnId: 't1', step, awaitingDecision: false },
      { type: 'turn_end', ...ids, turnId: 't1', reason: 'tool_use' },
    ];
    events.forEach((e) => c.add(e));
    assert.deepEqual(c.steps, [step]);
  });

  it('builds steps from message and tool events when there is no step_end', () => {
    const c = new StepCollector();
    const events: AgentEvent[] = [
      { type: 'message_end', ...ids, turnId: 't1', messageId: 'm', content: 'Reading.' },
      { type: 'tool_start', ...ids, turnId: 't1', toolCallId: 'c1', toolName: 'read_file', args: { path: 'a' } },
      { type: 'tool_end', ...ids, turnId: 't1', toolCallId: 'c1', toolName: 'read_file', durationMs: 1, success: false, error: 'missing' },
      { type: 'turn_end', ...ids, turnId: 't1', reason: 'tool_use' },
      { type: 'message_end', ...ids, turnId: 't2', messageId: 'm2', content: 'Done.' },
      { type: 'turn_end', ...ids, turnId: 't2', reason: 'completed' },
    ];
    events.forEach((e) => c.add(e));
    assert.deepEqual(c.steps, [
      {
        stepNumber: 1,
        thought: 'Reading.',
        toolCalls: [{ tool: 'read_file', args: { path: 'a' } }],
        toolResults: [{ tool: 'read_file', success: false, error: 'missing' }],
      },
    ]);
  });
});
