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
  // An accepted plan runs step by step; each step's sub-loop follows the strategy (parallel calls, reflexion).
  if (choice.acceptedPlan) return runAcceptedPlan(req, withStrategy(deps, choice), choice.acceptedPlan.steps, choice.acceptedPlan.planId);
  // Plan mode plans, whatever the strategy: the strategy applies to the accepted plan's run and later runs.
  if (choice.planMode) return runReactLoop(req, { ...deps, afterStep: planModeAfterStep() });
  if (choice.loopType === 'plan-and-execute') return runPlanAndExecute(req, deps);
  return runReactLoop(req, withStrategy(deps, choice));
}

/** The react loop's deps for a strategy: `parallel` runs a message's calls at once, `reflexion` critiques failed steps. */
function withStrategy(deps: LoopDeps, choice: LoopChoice): LoopDeps {
  switch (choice.loopType) {
    case 'parallel':
      return { ...deps, runCalls: parallelCallRunner() };
    case 'reflexion':
      return { ...deps, afterStep: reflexionHook(deps, choice.reflexionMaxRetries) };
    case 'plan-and-execute':
    case 'react':
      return deps;
  }
}
