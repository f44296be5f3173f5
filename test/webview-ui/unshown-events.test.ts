import assert from 'node:assert/strict';
import type { AgentEvent } from '../../src/protocol';
import { applyEvent, createTranscript } from '../../src/shared/chat/model/transcriptReducer';
import { isUnshownEvent } from '../../src/shared/chat/model/unshownEvents';

// The extension posts the panel only the events the transcript shows (src/extension/app.ts): a run's transcript must
// come out the same from those alone as from every event.
describe('unshown events', () => {
  const ids = { sessionId: 's', runId: 'r1' };
  const turn = (n: number) => ({ ...ids, turnId: `t${n}` });
  const run: AgentEvent[] = [
    { type: 'agent_start', ...ids, prompt: 'list the files' },
    { type: 'turn_start', ...turn(1), turnNumber: 1 },
    { type: 'message_start', ...turn(1), messageId: 'm1', role: 'assistant' },
    { type: 'message_update', ...turn(1), messageId: 'm1', delta: 'Looking' },
    { type: 'message_update', ...turn(1), messageId: 'm1', delta: ' now.' },
    { type: 'message_end', ...turn(1), messageId: 'm1', content: 'Looking now.' },
    { type: 'tool_start', ...turn(1), toolCallId: 'c1', toolName: 'list_files', args: {} },
    { type: 'tool_end', ...turn(1), toolCallId: 'c1', toolName: 'list_files', durationMs: 3, success: true, output: 'a.ts' },
    { type: 'turn_end', ...turn(1), reason: 'tool_use' },
    { type: 'turn_start', ...turn(2), turnNumber: 2 },
    { type: 'message_start', ...turn(2), messageId: 'm2', role: 'assistant' },
    { type: 'message_update', ...turn(2), messageId: 'm2', delta: 'One file: a.ts' },
    { type: 'message_end', ...turn(2), messageId: 'm2', content: 'One file: a.ts' },
    { type: 'turn_end', ...turn(2), reason: 'completed' },
    { type: 'agent_end', ...ids, status: 'completed', text: 'One file: a.ts' },
    { type: 'session_end', sessionId: 's', duration: 12 },
  ];

  it('the transcript from the posted events alone equals the one from all of them', () => {
    const all = createTranscript();
    for (const e of run) applyEvent(all, e);
    const posted = createTranscript();
    for (const e of run.filter((e) => !isUnshownEvent(e))) applyEvent(posted, e);
    assert.ok(all.items.length >= 3, 'the run shows its messages and its tool card');
    assert.deepEqual(posted.items, all.items);
  });

  it('holds back the run-opening events ahead of the first text, and nothing the panel acts on', () => {
    assert.deepEqual(run.filter(isUnshownEvent).map((e) => e.type), ['turn_start', 'message_start', 'turn_end', 'turn_start', 'message_start', 'turn_end', 'session_end']);
    const acted: AgentEvent['type'][] = ['agent_start', 'agent_end', 'message_update', 'tool_start', 'permission_request', 'change_batch_ready', 'plan_proposed', 'error'];
    for (const type of acted) assert.equal(isUnshownEvent({ type } as AgentEvent), false, type);
  });
});
