/**
 * Picks the run loop for a strategy (`--loop-type`, config `loopType`): `react` (the default, react-loop.ts),
 * `plan-and-execute`, `parallel`, `reflexion`; plan mode's hook and an accepted plan's execution come through here too.
 */
import type { LoopType } from '../../../protocol';
import { runReactLoop, type LoopDeps, type RunOutcome, type RunRequest } from '../react-loop';
import { parallelCallRunner } from './parallel';
import { runAcceptedPlan, runPlanAndExecute } from './plan-and-execute';
import { planModeAfterStep } from './plan-mode';
import type { PlanDraft } from './plan-tool';
import { reflexionHook } from './reflexion';

export interface LoopChoice {
  loopType: LoopType;
  /** `reflexion.maxRetries`. */
  reflexionMaxRetries: number;
  /** Plan mode is on: the deps already offer only read-only tools and `submit_plan`; a proposal ends the run. */
  planMode: boolean;
  /** An accepted plan to execute (respondToPlan accept). */
  acceptedPlan?: { planId: string; steps: PlanDraft };
}

export function runLoop(req: RunRequest, deps: LoopDeps, choice: LoopChoice): Promise<RunOutcome> {
  if (choice.acceptedPlan) return runAcceptedPlan(req, deps, choice.acceptedPlan.steps, choice.acceptedPlan.planId);
  // Plan mode plans, whatever the strategy: the strategy applies to the accepted plan's run and later runs.
  if (choice.planMode) return runReactLoop(req, { ...deps, afterStep: planModeAfterStep() });
  switch (choice.loopType) {
    case 'plan-and-execute':
      return runPlanAndExecute(req, deps);
    case 'parallel':
      return runReactLoop(req, { ...deps, runCalls: parallelCallRunner() });
    case 'reflexion':
      return runReactLoop(req, { ...deps, afterStep: reflexionHook(deps, choice.reflexionMaxRetries) });
    case 'react':
      return runReactLoop(req, deps);
  }
}
