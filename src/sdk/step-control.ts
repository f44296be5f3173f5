import type { AgentStep } from '../protocol/records';
import { InvalidArgumentError } from './errors';

export interface StopConditionContext {
  /** Completed tool steps of the run so far, oldest first; the last one just finished. */
  readonly steps: readonly AgentStep[];
}

/** Decides after each completed tool step whether the run stops there. */
export type StopCondition = (context: StopConditionContext) => boolean | Promise<boolean>;

/** Stops once the run has completed `count` tool steps. `count` must be a positive integer. */
export function isStepCount(count: number): StopCondition {
  if (typeof count !== 'number' || !Number.isInteger(count) || count <= 0) {
    throw new InvalidArgumentError(`isStepCount(count): count must be a positive integer, got ${String(count)}`);
  }
  return ({ steps }) => steps.length >= count;
}

/** Stops when the latest completed step called the tool `toolName`. */
export function hasToolCall(toolName: string): StopCondition {
  if (typeof toolName !== 'string' || toolName.trim() === '') {
    throw new InvalidArgumentError(`hasToolCall(toolName): toolName must be a non-empty string, got ${JSON.stringify(toolName)}`);
  }
  return ({ steps }) => steps.at(-1)?.toolCalls.some((call) => call.tool === toolName) ?? false;
}

/** Checks `stopWhen` at call time and returns its conditions as a list (empty when omitted). */
export function normalizeStopWhen(stopWhen: StopCondition | readonly StopCondition[] | undefined): StopCondition[] {
  if (stopWhen === undefined) return [];
  const list = Array.isArray(stopWhen) ? [...(stopWhen as readonly StopCondition[])] : [stopWhen as StopCondition];
  if (list.length === 0) {
    throw new InvalidArgumentError('stopWhen is an empty array; give at least one condition or omit stopWhen');
  }
  list.forEach((condition, i) => {
    if (typeof condition !== 'function') {
      throw new InvalidArgumentError(
        `stopWhen[${i}] is ${typeof condition}, not a function; use isStepCount(n), hasToolCall(name) or ({ steps }) => boolean`,
      );
    }
  });
  return list;
}

/**
 * A deep, frozen copy of one step, made once when the step completes, so conditions can neither change it nor the run's
 * steps. A step is JSON data (it came over the wire): copied and frozen in one pass, which in a profile cost about a
 * quarter of structuredClone plus a second walk to freeze, on the path of every step of a run with stopWhen.
 */
export function snapshotStep(step: AgentStep): AgentStep {
  return frozenCopy(step);
}

function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  // fromEntries defines each key as an own property: a `__proto__` key from the wire stays data, never a prototype
  return Object.freeze(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, frozenCopy(v)]))) as T;
}

/**
 * Evaluates every condition (all of them, concurrently) on the steps; true when any is true. `steps` are
 * snapshots (`snapshotStep`); unfrozen steps are snapshotted here. A condition that throws, rejects or answers
 * something other than a boolean makes this reject.
 */
export async function shouldStop(conditions: readonly StopCondition[], steps: readonly AgentStep[]): Promise<boolean> {
  const snapshot = Object.freeze(steps.map((s) => (Object.isFrozen(s) ? s : snapshotStep(s))));
  const answers = await Promise.all(conditions.map(async (condition) => condition({ steps: snapshot })));
  answers.forEach((answer, i) => {
    if (typeof answer !== 'boolean') {
      throw new InvalidArgumentError(`stop condition ${i} returned ${typeof answer}; a condition must return true or false`);
    }
  });
  return answers.some((a) => a);
}
