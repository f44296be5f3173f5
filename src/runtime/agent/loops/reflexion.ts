/**
 * The `reflexion` strategy: the react loop, and after each step with a failed tool call (a tool error or a command's
 * failing exit status) a short critique request without tools judges what went wrong. The critique is a `reflection`
 * event and joins the context before the model's retry. A run gets at most `maxRetries` critiques (config
 * `reflexion.maxRetries`); a step that fails after those ends the run (stopped, `reflexion_retries`).
 */
import type { AgentStep } from '../../../protocol';
import type { LoopDeps } from '../react-loop';
import { requestText } from './model-turn';

const CRITIQUE_INSTRUCTION =
  'The last step failed (see the tool results above). In at most five sentences, critique it: what went wrong, ' +
  'which assumption was false, and what to do differently on the retry. Do not call tools; do not redo the work.';

/** Failures worth a critique: not a person's refusal (retrying it differently would go around them). */
export function failedTools(step: AgentStep): string[] {
  return step.toolResults
    .filter((r) => !r.success && !/^(the user denied|permission denied|aborted by the user)/.test(r.error ?? ''))
    .map((r) => r.tool);
}

export function reflexionHook(deps: LoopDeps, maxRetries: number): NonNullable<LoopDeps['afterStep']> {
  let attempts = 0;
  return async (step, ids) => {
    const failed = failedTools(step);
    if (failed.length === 0) return;
    if (attempts >= maxRetries) return { stop: 'reflexion_retries' };
    attempts++;
    const critique = (await requestText(deps, CRITIQUE_INSTRUCTION)) || 'The critique request returned no text; check the error above before retrying.';
    deps.emit({ type: 'reflection', runId: ids.runId, turnId: ids.turnId, attempt: attempts, maxRetries, critique, failedTools: failed });
    deps.history.push({
      role: 'user',
      content: `Reflection on the failed step (retry ${attempts} of ${maxRetries}):\n${critique}\nRetry the step with this in mind.`,
    });
  };
}
