/**
 * The `plan-and-execute` strategy: the first request must call `submit_plan` (structured steps); each step then runs
 * as its own bounded react sub-loop with the plan and the current step in context; a failed step may re-plan (at most
 * MAX_REPLANS times); a last request without tools summarises. Every plan change is a `plan_update` event.
 */
import { toEventError } from '../errors';
import { RequestCancelledError } from '../pending-requests';
import { renderUserMessage, runReactLoop, type LoopDeps, type RunOutcome, type RunRequest } from '../react-loop';
import { requestTurn } from './model-turn';
import { SUBMIT_PLAN, parsePlanArguments, renderPlan, submitPlanSpec, type PlanDraft } from './plan-tool';
import { PlanTracker } from './plan-tracker';

/** Re-plans one run may make after failed steps. */
export const MAX_REPLANS = 2;
/** Model requests one step's sub-loop may make (bounded further by the run's own iteration limit). */
export const STEP_ITERATIONS = 10;
/** Requests for a plan before giving up (the model answered without a valid `submit_plan` call). */
const PLAN_ATTEMPTS = 3;
/** How a step's sub-loop says it could not be done. */
export const STEP_FAILED_MARK = 'STEP FAILED:';

const PLAN_INSTRUCTION =
  `Plan before acting: call ${SUBMIT_PLAN} once with the ordered steps that complete the user's request. ` +
  'Do not answer in text and call no other tool; the steps run one at a time afterwards.';

class PlanningFailed extends Error {}

/** Counts the run's model requests across planning, steps and the summary. */
interface Budget {
  turn: number;
}

export async function runPlanAndExecute(req: RunRequest, deps: LoopDeps): Promise<RunOutcome> {
  deps.history.push({ role: 'user', content: renderUserMessage(req.message, req.context) });
  const budget: Budget = { turn: 0 };
  return guarded(req, deps, async () => {
    const draft = await obtainPlan(req.runId, deps, budget, PLAN_INSTRUCTION);
    return executePlan(req, deps, new PlanTracker(req.runId, draft, (d) => deps.emit(d)), budget);
  });
}

/** Runs an accepted plan (plan mode): the same execution phase, after `message` (what was accepted) joins the history. */
export async function runAcceptedPlan(req: RunRequest, deps: LoopDeps, draft: PlanDraft, planId: string): Promise<RunOutcome> {
  deps.history.push({ role: 'user', content: `${req.message}\n\n${renderPlan(draft.map((d) => ({ ...d, status: 'pending' })), false)}` });
  return guarded(req, deps, () => executePlan(req, deps, new PlanTracker(req.runId, draft, (d) => deps.emit(d), planId), { turn: 0 }));
}

async function guarded(req: RunRequest, deps: LoopDeps, body: () => Promise<RunOutcome>): Promise<RunOutcome> {
  try {
    return await body();
  } catch (e) {
    if (deps.signal.aborted || (e instanceof RequestCancelledError && e.reason === 'aborted')) return { status: 'aborted', text: '' };
    const error = e instanceof PlanningFailed ? { code: 'provider_error' as const, message: e.message } : toEventError(e);
    deps.emit({
      type: 'error',
      runId: req.runId,
      code: error.code,
      error: error.message,
      ...('remedy' in error && error.remedy ? { remedy: error.remedy } : {}),
      ...('fix' in error && error.fix ? { fix: error.fix } : {}),
    });
    return { status: 'error', text: '', error: { code: error.code, message: error.message } };
  }
}

/**
 * Asks for a plan until a valid `submit_plan` call arrives (PLAN_ATTEMPTS requests). The call and its result join
 * the history; a reply without one gets a reminder, an invalid one its error as the tool result.
 */
async function obtainPlan(runId: string, deps: LoopDeps, budget: Budget, instruction: string): Promise<PlanDraft> {
  let problem = '';
  for (let attempt = 1; attempt <= PLAN_ATTEMPTS; attempt++) {
    const reply = await requestTurn(deps, {
      runId,
      turnNumber: ++budget.turn,
      tools: [submitPlanSpec],
      toolChoice: { name: SUBMIT_PLAN },
      instruction: problem ? `${instruction}\nYour previous answer was not usable: ${problem}` : instruction,
    });
    deps.history.push({
      role: 'assistant',
      content: reply.text,
      ...(reply.calls.length ? { toolCalls: reply.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
    });
    let draft: PlanDraft | undefined;
    for (const call of reply.calls) {
      let result: string;
      if (call.name !== SUBMIT_PLAN) {
        result = `${call.name} is not available while planning; call ${SUBMIT_PLAN}`;
      } else if (draft) {
        result = `only the first ${SUBMIT_PLAN} call counts`;
      } else {
        const parsed = parsePlanArguments(call.arguments);
        if (parsed.ok) {
          draft = parsed.steps;
          result = `plan accepted: ${parsed.steps.length} step(s); they run one at a time now`;
        } else {
          result = parsed.error;
          problem = parsed.error;
        }
      }
      deps.history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: result });
    }
    // Not an `error` turn: the next request tells the model what was wrong (only running out of attempts is an error).
    deps.emit({ type: 'turn_end', runId, turnId: reply.turnId, reason: reply.calls.length > 0 ? 'tool_use' : 'completed' });
    if (draft) return draft;
    if (!reply.calls.some((c) => c.name === SUBMIT_PLAN)) problem = `you did not call ${SUBMIT_PLAN}`;
  }
  throw new PlanningFailed(`the model gave no valid plan in ${PLAN_ATTEMPTS} requests (last problem: ${problem}); try another model or --loop-type react`);
}

function stepMessage(tracker: PlanTracker, index: number): string {
  const step = tracker.steps[index]!;
  return [
    `The plan (step ${index + 1} of ${tracker.steps.length} runs now):`,
    renderPlan(tracker.steps),
    '',
    `Do step ${index + 1} only: ${step.title}${step.detail ? `\n${step.detail}` : ''}`,
    `When it is done, answer with a one-line result. If it cannot be done, answer starting with "${STEP_FAILED_MARK}" and the reason.`,
  ].join('\n');
}

async function executePlan(req: RunRequest, deps: LoopDeps, tracker: PlanTracker, budget: Budget): Promise<RunOutcome> {
  let failedForGood = false;
  for (let index = tracker.nextPending(); index >= 0; index = tracker.nextPending()) {
    const remaining = req.maxIterations - budget.turn;
    if (remaining <= 1) {
      tracker.skipRest('the run reached its iteration limit');
      return { status: 'stopped', stoppedReason: 'max_iterations', text: '' };
    }
    tracker.set(index, 'in_progress');
    const cap = Math.min(STEP_ITERATIONS, remaining - 1); // one request is kept for the summary
    // The sub-loop's requests count against the run's bound (each of its turns starts with turn_start).
    const counted: LoopDeps = {
      ...deps,
      emit: (d) => {
        if (d.type === 'turn_start') budget.turn++;
        deps.emit(d);
      },
    };
    // A step answers in plain text (its result line); only the final summary takes the run's response format.
    const { responseFormat: _format, ...stepReq } = req;
    const sub = await runReactLoop({ ...stepReq, message: stepMessage(tracker, index), context: [], maxIterations: cap }, counted);
    if (sub.status === 'aborted') {
      tracker.set(index, 'failed', 'aborted by the user');
      return { status: 'aborted', text: sub.text };
    }
    if (sub.status === 'error') {
      tracker.set(index, 'failed', sub.error?.message ?? 'model error');
      tracker.skipRest('the run ended with an error');
      return sub;
    }
    if (sub.status === 'stopped' && sub.stoppedReason !== 'max_iterations') {
      tracker.set(index, 'failed', `stopped: ${sub.stoppedReason ?? 'stop condition'}`);
      tracker.skipRest('the run was stopped');
      return sub;
    }
    const text = sub.text.trim();
    const failure = sub.status === 'stopped' ? `no result within ${cap} model requests` : text.startsWith(STEP_FAILED_MARK) ? text.slice(STEP_FAILED_MARK.length).trim() : undefined;
    if (failure === undefined) {
      tracker.set(index, 'done', firstLine(text));
      continue;
    }
    tracker.set(index, 'failed', firstLine(failure) || 'failed');
    if (tracker.replans >= MAX_REPLANS || req.maxIterations - budget.turn <= 2) {
      tracker.skipRest(`step ${index + 1} failed and no re-plan is left`);
      failedForGood = true;
      break;
    }
    const instruction =
      `Step ${index + 1} failed: ${failure}\nThe plan so far:\n${renderPlan(tracker.steps)}\n` +
      `Re-plan: call ${SUBMIT_PLAN} with the steps that remain to complete the user's request (done steps stay done; ` +
      `${MAX_REPLANS - tracker.replans} re-plan(s) left).`;
    tracker.replan(await obtainPlan(req.runId, deps, budget, instruction));
  }
  const summary = await summarise(req, deps, tracker, ++budget.turn);
  return failedForGood ? { status: 'stopped', stoppedReason: 'plan_failed', text: summary } : { status: 'completed', text: summary };
}

async function summarise(req: RunRequest, deps: LoopDeps, tracker: PlanTracker, turnNumber: number): Promise<string> {
  const runId = req.runId;
  const instruction =
    `All plan steps have run. The plan with each step's outcome:\n${renderPlan(tracker.steps)}\n` +
    'Answer the user now with a short summary: what was done, what failed or was skipped and why. Call no tool.';
  const reply = await requestTurn(deps, { runId, turnNumber, tools: [], instruction, ...(req.responseFormat ? { responseFormat: req.responseFormat } : {}) });
  deps.history.push({ role: 'assistant', content: reply.text });
  deps.emit({ type: 'turn_end', runId, turnId: reply.turnId, reason: 'completed' });
  return reply.text;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
