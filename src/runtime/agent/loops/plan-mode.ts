/**
 * Plan mode: until a plan is accepted the model is offered only read-only tools (read, list, grep, editor reads) and
 * `submit_plan`. Its `submit_plan` call is a `plan_proposed` event and ends the run; `respondToPlan` accepts it (plan
 * mode ends and a run executes it step by step) or sends a revision note back while staying in plan mode.
 */
import * as z from '../../../protocol/zod';
import type { PlanStep } from '../../../protocol';
import type { ChatToolSpec } from '../../providers/types';
import type { ToolDefinition } from '../../tools/types';
import { ToolInputError } from '../../tools/types';
import type { EventDraft } from '../host';
import { newId } from '../ids';
import type { LoopDeps } from '../react-loop';
import { SUBMIT_PLAN, parsePlanArguments, pendingSteps, renderPlan, submitPlanSpec, type PlanDraft } from './plan-tool';

export interface ProposedPlan {
  planId: string;
  runId: string;
  steps: PlanDraft;
}

export const PLAN_MODE_PROMPT =
  `Plan mode is on: investigate with the read-only tools, then propose a plan with ${SUBMIT_PLAN}. ` +
  'Do not change files or run commands: that happens after the user accepts the plan.';

/** The tool specs plan mode offers: the read-only ones of `all`, and `submit_plan`. */
export function planModeSpecs(all: readonly ChatToolSpec[], tools: ReadonlyMap<string, ToolDefinition>): ChatToolSpec[] {
  return [...all.filter((s) => tools.get(s.name)?.readOnly === true), submitPlanSpec];
}

/**
 * The `submit_plan` tool of plan mode: validates the steps, records the proposal (`onProposed`) and emits
 * `plan_proposed`. Read-only: it changes nothing until the user accepts.
 */
export function submitPlanTool(runId: () => string, emit: (d: EventDraft) => void, onProposed: (p: ProposedPlan) => void): ToolDefinition {
  return {
    name: SUBMIT_PLAN,
    description: submitPlanSpec.description,
    inputSchema: z.object({ steps: z.array(z.object({ title: z.string(), detail: z.string().optional() })) }),
    readOnly: true,
    permissionTarget: () => ({ ruleTool: 'Read', description: 'Propose a plan' }),
    run: async (args) => {
      const parsed = parsePlanArguments(JSON.stringify(args));
      if (!parsed.ok) throw new ToolInputError(parsed.error);
      const planId = newId('plan');
      const steps: PlanStep[] = pendingSteps(parsed.steps);
      onProposed({ planId, runId: runId(), steps: parsed.steps });
      emit({ type: 'plan_proposed', runId: runId(), planId, steps, text: renderPlan(steps, false) });
      return { output: `Plan ${planId} (${steps.length} step(s)) is with the user for review. Stop here: the user accepts it or asks for changes.` };
    },
  };
}

/** Ends the run once a step proposed a plan (the model waits for the user's answer). */
export function planModeAfterStep(): NonNullable<LoopDeps['afterStep']> {
  return async (step) => {
    const proposed = step.toolCalls.some((c, i) => c.tool === SUBMIT_PLAN && step.toolResults[i]?.success);
    return proposed ? { stop: 'plan_proposed' } : undefined;
  };
}
