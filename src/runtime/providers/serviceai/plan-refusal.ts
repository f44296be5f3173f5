/**
 * A hosted refusal because the model is outside the caller's plan (HTTP 403 with code `model_not_in_plan`, or a
 * message saying the model is not included in the plan). It is not a credentials problem: the key is valid.
 */
import { PLAN_NAMES, planHint, type PlanName } from './plans';

const NOT_IN_PLAN_CODE = /\bmodel_not_in_plan\b|\bnot_in_plan\b/i;
const NOT_IN_PLAN_TEXT = /not (?:included )?in (?:the |your )?(?:[\w+]+ )?plan/i;

export interface PlanRefusal {
  message: string;
  remedy: string;
  /** The caller's plan when the service named it. */
  plan?: PlanName;
}

/** The plan named in the service's message ("... the Free plan"), longest name first so "Pro+" beats "Pro". */
export function planNamedIn(text: string): PlanName | undefined {
  const names = [...PLAN_NAMES].sort((a, b) => b.length - a.length);
  for (const name of names) {
    const escaped = name.replace(/[+]/g, '\\+');
    if (new RegExp(`(^|[^\\w])${escaped}(?![\\w+]) plan`, 'i').test(text)) return name;
  }
  return undefined;
}

/** The remedy of a model outside the plan: the plan that includes it, or choosing a listed model. */
export function notInPlanRemedy(model: string): string {
  const hint = planHint(model);
  const upgrade = hint ? `upgrade to a plan that includes "${model}" (it is ${hint})` : `upgrade to a plan that includes "${model}"`;
  return `${upgrade}, or choose a model your catalog lists (\`/model\` in a session)`;
}

/** "<model> is not in your plan (<plan>)" when the refusal says so; undefined for any other refusal. */
export function planRefusal(
  refusal: { status: number | undefined; detail: string; codeText?: string },
  model: string,
): PlanRefusal | undefined {
  if (refusal.status !== 403 && refusal.status !== undefined) return undefined;
  if (!NOT_IN_PLAN_CODE.test(refusal.codeText ?? '') && !NOT_IN_PLAN_TEXT.test(refusal.detail)) return undefined;
  const plan = planNamedIn(refusal.detail);
  const http = refusal.status === undefined ? '' : `HTTP ${refusal.status}: `;
  return {
    message: `"${model}" is not in your plan${plan ? ` (${plan})` : ''} (${http}${refusal.detail})`,
    remedy: notInPlanRemedy(model),
    ...(plan ? { plan } : {}),
  };
}
