import assert from 'node:assert/strict';
import { AgentEvent } from '../../src/protocol';
import { TranscriptItem, type ItemOf } from '../../src/shared/chat/messages';
import { answerPlanItem, applyEvent, createTranscript, mergePending } from '../../src/shared/chat/model/transcriptReducer';

const run = { sessionId: 's1', runId: 'r1' };
const steps = (...s: Array<[string, 'pending' | 'in_progress' | 'done' | 'failed' | 'skipped']>) => s.map(([title, status]) => ({ title, status }));
const noPending = { permissions: [], directories: [], batch: null };

function apply(m: ReturnType<typeof createTranscript>, e: AgentEvent) {
  assert.equal(AgentEvent.safeParse(e).success, true, `${e.type} is a valid protocol event`);
  return applyEvent(m, e);
}

function plan(m: ReturnType<typeof createTranscript>, id = 'plan:p1'): ItemOf<'plan'> {
  const item = m.items.find((i) => i.id === id);
  assert.ok(item !== undefined && item.kind === 'plan', `no plan card ${id}`);
  return item;
}

describe('transcript reducer: plan cards and reflections', () => {
  it('plan_proposed makes a proposed plan card; accepting it and the plan_update of its run turn it into a live checklist below that run', () => {
    const m = createTranscript();
    apply(m, { type: 'agent_start', ...run, prompt: 'add a flag' });
    const c = apply(m, { type: 'plan_proposed', ...run, planId: 'p1', steps: steps(['Read the parser', 'pending'], ['Add the flag', 'pending']), text: '1. Read\n2. Add' });
    assert.deepEqual(c.ids, ['plan:p1']);
    assert.equal(plan(m).status, 'proposed');
    apply(m, { type: 'agent_end', ...run, status: 'stopped', stoppedReason: 'plan_proposed', text: '' });
    assert.equal(plan(m).status, 'proposed', 'the end of the planning run leaves the plan waiting');
    assert.equal(m.items.filter((i) => i.kind === 'notice').length, 0, 'no "Run stopped" line under the plan card');

    assert.deepEqual(answerPlanItem(m, 'p1', 'accept').ids, ['plan:p1']);
    assert.equal(plan(m).status, 'accepted');
    assert.deepEqual(answerPlanItem(m, 'p1', 'revise').ids, [], 'an answered plan is not answered again');

    const r2 = { sessionId: 's1', runId: 'r2' };
    apply(m, { type: 'agent_start', ...r2, prompt: 'The plan was accepted. Carry it out step by step:' });
    const u = apply(m, { type: 'plan_update', ...r2, planId: 'p1', steps: steps(['Read the parser', 'in_progress'], ['Add the flag', 'pending']), change: 'step_started', stepIndex: 0, replans: 0 });
    assert.deepEqual(u.ids, ['plan:p1']);
    assert.equal(u.reordered, true, 'the card moved below the accepting run\'s prompt');
    assert.deepEqual(m.items.map((i) => i.id), ['user:r1', 'user:r2', 'plan:p1']);
    assert.equal(plan(m).status, 'running');
    assert.equal(plan(m).runId, 'r2');
    apply(m, { type: 'plan_update', ...r2, planId: 'p1', steps: steps(['Read the parser', 'done'], ['Add the flag', 'failed']), change: 'step_failed', stepIndex: 1, replans: 1 });
    assert.deepEqual(plan(m).steps.map((s) => s.status), ['done', 'failed']);
    assert.equal(plan(m).replans, 1);
    const end = apply(m, { type: 'agent_end', ...r2, status: 'completed', text: 'done' });
    assert.ok(end.ids.includes('plan:p1'));
    assert.equal(plan(m).status, 'finished');
    for (const item of m.items) assert.equal(TranscriptItem.safeParse(item).success, true, `${item.kind} item fits the contract`);
  });

  it('a plan-and-execute run without a proposal shows its plan from the first plan_update', () => {
    const m = createTranscript();
    apply(m, { type: 'agent_start', ...run, prompt: 'go' });
    apply(m, { type: 'plan_update', ...run, planId: 'p9', steps: steps(['One', 'pending']), change: 'created', replans: 0 });
    assert.equal(plan(m, 'plan:p9').status, 'running');
    assert.deepEqual(m.items.map((i) => i.kind), ['user', 'plan']);
  });

  it('a reflection is its own item with the critique, once per attempt', () => {
    const m = createTranscript();
    apply(m, { type: 'agent_start', ...run, prompt: 'go' });
    const e: AgentEvent = { type: 'reflection', ...run, turnId: 't1', attempt: 1, maxRetries: 2, critique: 'The path was wrong: list the folder first.', failedTools: ['read_file'] };
    apply(m, e);
    apply(m, e);
    const items = m.items.filter((i) => i.kind === 'reflection');
    assert.equal(items.length, 1);
    assert.equal(items[0]?.kind === 'reflection' && items[0].critique, 'The path was wrong: list the folder first.');
  });

  it('after a reload the waiting plan comes back from the snapshot; a card the runtime no longer waits for is marked expired', () => {
    const m = createTranscript();
    const proposed = { planId: 'p1', runId: 'r1', steps: steps(['A', 'pending']) };
    assert.deepEqual(mergePending(m, { ...noPending, plan: proposed }).ids, ['plan:p1']);
    assert.equal(plan(m).status, 'proposed');
    assert.deepEqual(mergePending(m, { ...noPending, plan: proposed }).ids, [], 'merging the same plan again changes nothing');
    mergePending(m, { ...noPending, plan: null });
    assert.equal(plan(m).status, 'expired');
  });
});
