import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/protocol';
import { MAX_PLAN_STEPS, parsePlanArguments, renderPlan } from '../../../src/runtime/agent/loops/plan-tool';
import { PlanTracker } from '../../../src/runtime/agent/loops/plan-tracker';

describe('submit_plan arguments and the plan tracker', () => {
  it('takes steps with a title and an optional detail, trimmed', () => {
    const r = parsePlanArguments(JSON.stringify({ steps: [{ title: ' Read ', detail: ' the file ' }, { title: 'Write', detail: '  ' }] }));
    assert.deepEqual(r, { ok: true, steps: [{ title: 'Read', detail: 'the file' }, { title: 'Write' }] });
  });

  it('refuses what the model cannot mean, saying what to send', () => {
    const error = (raw: string) => {
      const r = parsePlanArguments(raw);
      assert.equal(r.ok, false, raw);
      return r.ok ? '' : r.error;
    };
    assert.match(error('{"steps": ['), /not valid JSON/);
    assert.match(error('{}'), /non-empty array/);
    assert.match(error('{"steps": []}'), /non-empty array/);
    assert.match(error(JSON.stringify({ steps: [{ title: '' }] })), /step 1 needs a non-empty "title"/);
    assert.match(error(JSON.stringify({ steps: [{ title: 'a' }, { title: 'b', detail: 3 }] })), /step 2: "detail" must be a string/);
    assert.match(error(JSON.stringify({ steps: Array.from({ length: MAX_PLAN_STEPS + 1 }, () => ({ title: 'x' })) })), /at most 20 steps/);
    assert.match(error(JSON.stringify({ steps: [{ title: 'x'.repeat(201) }] })), /longer than 200/);
  });

  it('renders numbered steps with or without their status', () => {
    const steps = [{ title: 'Read', detail: 'a.txt', status: 'done' as const, note: 'read it' }, { title: 'Write', status: 'pending' as const }];
    assert.equal(renderPlan(steps), '1. [done] Read\n   a.txt\n   (read it)\n2. [pending] Write');
    assert.equal(renderPlan(steps, false), '1. Read\n   a.txt\n2. Write');
  });

  it('emits the whole plan at each change; a re-plan keeps done and failed steps and replaces the rest', () => {
    const events: AgentEvent[] = [];
    const tracker = new PlanTracker('run_1', [{ title: 'A' }, { title: 'B' }, { title: 'C' }], (d) => events.push({ ...d, sessionId: 's' } as AgentEvent), 'plan_1');
    tracker.set(0, 'in_progress');
    tracker.set(0, 'done', 'ok');
    tracker.set(1, 'in_progress');
    tracker.set(1, 'failed', 'broke');
    tracker.replan([{ title: 'B2' }]);
    assert.equal(tracker.nextPending(), 2);
    tracker.skipRest('gave up');
    const updates = events.flatMap((e) => (e.type === 'plan_update' ? [e] : []));
    assert.deepEqual(updates.map((u) => u.change), ['created', 'step_started', 'step_done', 'step_started', 'step_failed', 'replanned', 'skipped']);
    assert.deepEqual(updates.at(-1)!.steps.map((s) => `${s.title}:${s.status}`), ['A:done', 'B:failed', 'B2:skipped']);
    assert.equal(updates.at(-1)!.replans, 1);
    assert.ok(updates.every((u) => u.planId === 'plan_1' && u.runId === 'run_1'));
    // Each event carries its own copy: later changes do not rewrite what was sent.
    assert.equal(updates[0]!.steps[0]!.status, 'pending');
  });
});
