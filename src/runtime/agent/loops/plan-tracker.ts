/** A plan's steps and their statuses; every change is a `plan_update` event carrying the whole plan. */
import type { PlanStep, PlanStepStatus } from '../../../protocol';
import type { EventDraft } from '../host';
import { newId } from '../ids';
import { pendingSteps, type PlanDraft } from './plan-tool';

type Change = Extract<EventDraft, { type: 'plan_update' }>['change'];

export class PlanTracker {
  readonly planId: string;
  steps: PlanStep[];
  replans = 0;

  constructor(
    private readonly runId: string,
    draft: PlanDraft,
    private readonly emit: (d: EventDraft) => void,
    planId = newId('plan'),
  ) {
    this.planId = planId;
    this.steps = pendingSteps(draft);
    this.publish('created');
  }

  set(index: number, status: PlanStepStatus, note?: string): void {
    const step = this.steps[index];
    if (!step) return;
    this.steps[index] = { ...step, status, ...(note ? { note } : {}) };
    const change: Change = status === 'in_progress' ? 'step_started' : status === 'done' ? 'step_done' : status === 'failed' ? 'step_failed' : 'skipped';
    this.publish(change, index);
  }

  /** Every step still pending becomes skipped (one event), e.g. after a failure with no re-plan left. */
  skipRest(note: string): void {
    let any = false;
    this.steps = this.steps.map((s) => {
      if (s.status !== 'pending') return s;
      any = true;
      return { ...s, status: 'skipped' as const, note };
    });
    if (any) this.publish('skipped');
  }

  /** A re-plan: the steps done or failed so far stay; the rest is replaced by the new draft's steps. */
  replan(draft: PlanDraft): void {
    this.replans++;
    this.steps = [...this.steps.filter((s) => s.status === 'done' || s.status === 'failed'), ...pendingSteps(draft)];
    this.publish('replanned');
  }

  nextPending(): number {
    return this.steps.findIndex((s) => s.status === 'pending');
  }

  private publish(change: Change, stepIndex?: number): void {
    this.emit({
      type: 'plan_update',
      runId: this.runId,
      planId: this.planId,
      steps: this.steps.map((s) => ({ ...s })),
      change,
      ...(stepIndex !== undefined ? { stepIndex } : {}),
      replans: this.replans,
    });
  }
}
