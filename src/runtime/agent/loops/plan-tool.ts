/**
 * The `submit_plan` tool: how a model hands over a plan as structured data (plan-and-execute's first request, plan
 * mode's proposal). Parsing is strict and its errors are written for the model, which gets them back to correct.
 */
import type { PlanStep } from '../../../protocol';
import type { ChatToolSpec } from '../../providers/types';

export const SUBMIT_PLAN = 'submit_plan';
/** Most steps one plan may have: a longer list is a sign the model is not planning but enumerating. */
export const MAX_PLAN_STEPS = 20;
const MAX_TITLE_CHARS = 200;
const MAX_DETAIL_CHARS = 2000;

export const submitPlanSpec: ChatToolSpec = {
  name: SUBMIT_PLAN,
  description:
    'Submit the plan: an ordered list of concrete steps. Each step has a short imperative title and optional detail ' +
    '(files, commands, how to check it worked). Steps run one at a time, in order.',
  parameters: {
    type: 'object',
    properties: {
      steps: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_PLAN_STEPS,
        items: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'What the step does, in a few words' },
            detail: { type: 'string', description: 'How: files, commands, checks' },
          },
          required: ['title'],
          additionalProperties: false,
        },
      },
    },
    required: ['steps'],
    additionalProperties: false,
  },
};

export type PlanDraft = Array<{ title: string; detail?: string }>;

/** The steps of a `submit_plan` call, or an error the model can act on. */
export function parsePlanArguments(raw: string): { ok: true; steps: PlanDraft } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: `${SUBMIT_PLAN} arguments are not valid JSON; send {"steps": [{"title": "...", "detail": "..."}]}` };
  }
  const steps = typeof value === 'object' && value !== null ? (value as { steps?: unknown }).steps : undefined;
  if (!Array.isArray(steps) || steps.length === 0) {
    return { ok: false, error: `${SUBMIT_PLAN} needs "steps": a non-empty array of {"title", "detail"?}` };
  }
  if (steps.length > MAX_PLAN_STEPS) return { ok: false, error: `${SUBMIT_PLAN} takes at most ${MAX_PLAN_STEPS} steps (got ${steps.length}); merge small steps` };
  const out: PlanDraft = [];
  for (const [i, step] of steps.entries()) {
    const s = typeof step === 'object' && step !== null ? (step as Record<string, unknown>) : {};
    const title = typeof s['title'] === 'string' ? s['title'].trim() : '';
    if (title === '') return { ok: false, error: `step ${i + 1} needs a non-empty "title" string` };
    if (title.length > MAX_TITLE_CHARS) return { ok: false, error: `step ${i + 1}: "title" is longer than ${MAX_TITLE_CHARS} characters; put the rest in "detail"` };
    const detail = s['detail'];
    if (detail !== undefined && typeof detail !== 'string') return { ok: false, error: `step ${i + 1}: "detail" must be a string` };
    if (typeof detail === 'string' && detail.length > MAX_DETAIL_CHARS) return { ok: false, error: `step ${i + 1}: "detail" is longer than ${MAX_DETAIL_CHARS} characters` };
    out.push({ title, ...(typeof detail === 'string' && detail.trim() !== '' ? { detail: detail.trim() } : {}) });
  }
  return { ok: true, steps: out };
}

/** The plan as numbered lines with each step's status, e.g. `2. [in_progress] Run the tests`. */
export function renderPlan(steps: readonly PlanStep[], withStatus = true): string {
  return steps
    .map((s, i) => {
      const head = `${i + 1}. ${withStatus ? `[${s.status}] ` : ''}${s.title}`;
      const detail = s.detail ? `\n   ${s.detail.replace(/\n/g, '\n   ')}` : '';
      const note = withStatus && s.note ? `\n   (${s.note})` : '';
      return head + detail + note;
    })
    .join('\n');
}

export function pendingSteps(draft: PlanDraft): PlanStep[] {
  return draft.map((d) => ({ ...d, status: 'pending' as const }));
}
