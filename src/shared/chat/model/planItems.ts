/**
 * Plan cards and reflections in the transcript: `plan_proposed` (plan mode, waiting for Accept or Revise),
 * `plan_update` (the live checklist of a plan being carried out) and `reflection` (a reflexion run's critique).
 * Pure logic, called by the reducer; returns the ids of the items it touched.
 */
import type { EventOf, PlanStep } from '../../../protocol';
import type { ItemOf, TranscriptItem } from '../transcriptItems';
import { moveAfterRun } from './toolLinks';
import type { TranscriptModel } from './transcriptModel';

export const planItemId = (planId: string) => `plan:${planId}`;

export interface PlanChanges {
  ids: string[];
  reordered?: boolean;
}

function add(model: TranscriptModel, item: TranscriptItem): void {
  const at = model.index.get(item.id);
  if (at !== undefined) {
    model.items[at] = item;
    return;
  }
  model.index.set(item.id, model.items.length);
  model.items.push(item);
}

function findPlan(model: TranscriptModel, planId: string): ItemOf<'plan'> | undefined {
  const at = model.index.get(planItemId(planId));
  const item = at === undefined ? undefined : model.items[at];
  return item?.kind === 'plan' ? item : undefined;
}

/** Plan mode proposed a plan: a card with its steps and Accept / Revise. A plan proposed again is updated in place. */
export function onPlanProposed(model: TranscriptModel, e: EventOf<'plan_proposed'>): PlanChanges {
  const id = planItemId(e.planId);
  add(model, { kind: 'plan', id, planId: e.planId, runId: e.runId, steps: e.steps, status: 'proposed' });
  return { ids: [id] };
}

/**
 * A plan's steps changed. An accepted plan's card follows its execution run: it moves below that run's prompt so the
 * checklist is where the work happens.
 */
export function onPlanUpdate(model: TranscriptModel, e: EventOf<'plan_update'>): PlanChanges {
  const id = planItemId(e.planId);
  const item = findPlan(model, e.planId);
  if (item === undefined) {
    add(model, { kind: 'plan', id, planId: e.planId, runId: e.runId, steps: e.steps, status: 'running', replans: e.replans });
    return { ids: [id] };
  }
  item.steps = e.steps;
  item.replans = e.replans;
  item.status = 'running';
  let reordered = false;
  if (item.runId !== e.runId) {
    item.runId = e.runId;
    reordered = moveAfterRun(model, id, e.runId);
  }
  return { ids: [id], reordered };
}

export function onReflection(model: TranscriptModel, e: EventOf<'reflection'>): PlanChanges {
  const id = `reflection:${e.runId}:${e.turnId ?? ''}:${e.attempt}`;
  add(model, { kind: 'reflection', id, runId: e.runId, attempt: e.attempt, maxRetries: e.maxRetries, critique: e.critique, failedTools: e.failedTools });
  return { ids: [id] };
}

/** The user answered a proposed plan (the runtime starts a run; its events update the card from there). */
export function answerPlan(model: TranscriptModel, planId: string, decision: 'accept' | 'revise'): PlanChanges {
  const item = findPlan(model, planId);
  if (item === undefined || item.status !== 'proposed') return { ids: [] };
  item.status = decision === 'accept' ? 'accepted' : 'revised';
  return { ids: [item.id] };
}

/** A run ended: the plan it carried out is finished (its steps keep the status they reached). */
export function settlePlans(model: TranscriptModel, runId: string): string[] {
  const ids: string[] = [];
  for (const item of model.items) {
    if (item.kind === 'plan' && item.runId === runId && item.status === 'running') {
      item.status = 'finished';
      ids.push(item.id);
    }
  }
  return ids;
}

/**
 * The runtime's waiting plan (getState().proposedPlan) after a reload or restart: shown as proposed; any other plan
 * card still marked proposed is no longer waiting (the runtime keeps one at most): it is marked expired.
 */
export function mergeProposedPlan(model: TranscriptModel, plan: { planId: string; runId: string; steps: PlanStep[] } | null): string[] {
  const ids: string[] = [];
  for (const item of model.items) {
    if (item.kind === 'plan' && item.status === 'proposed' && item.planId !== plan?.planId) {
      item.status = 'expired';
      ids.push(item.id);
    }
  }
  if (plan === null) return ids;
  const existing = findPlan(model, plan.planId);
  if (existing !== undefined) {
    if (existing.status !== 'proposed') {
      existing.status = 'proposed';
      ids.push(existing.id);
    }
    return ids;
  }
  add(model, { kind: 'plan', id: planItemId(plan.planId), planId: plan.planId, runId: plan.runId, steps: plan.steps, status: 'proposed' });
  ids.push(planItemId(plan.planId));
  return ids;
}
