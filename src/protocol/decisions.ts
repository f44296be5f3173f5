import * as z from './zod';

/** Typed decision kinds answered by the decisions model: yes/no (`noul`), one of given options, a score on a scale. */
export const DecisionKind = z.enum(['noul', 'choice', 'score']);
export type DecisionKind = z.infer<typeof DecisionKind>;

/** A probability in [0, 1]. */
const Probability = z.number().min(0).max(1);

/**
 * A typed decision request. `noul`: a yes/no question. `choice`: `options` (2 to 20 distinct) are required.
 * `score`: an integer on `scale` (default 1 to 5, at most 101 values).
 */
export const DecideParams = z
  .object({
    kind: DecisionKind,
    question: z.string().trim().min(1, 'question must not be empty'),
    options: z.array(z.string().trim().min(1, 'options must not be empty')).optional(),
    scale: z.object({ min: z.number().int(), max: z.number().int() }).optional(),
    /** Background the model should weigh (a diff summary, a changelog, a ticket). */
    context: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.kind === 'choice') {
      const options = p.options ?? [];
      if (options.length < 2 || options.length > 20) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'a choice needs 2 to 20 options' });
      } else if (new Set(options).size !== options.length) {
        ctx.addIssue({ code: 'custom', path: ['options'], message: 'options must be distinct' });
      }
    } else if (p.options !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['options'], message: `options are only for kind "choice" (kind is "${p.kind}")` });
    }
    if (p.scale !== undefined) {
      if (p.kind !== 'score') {
        ctx.addIssue({ code: 'custom', path: ['scale'], message: `scale is only for kind "score" (kind is "${p.kind}")` });
      } else if (p.scale.max <= p.scale.min || p.scale.max - p.scale.min > 100) {
        ctx.addIssue({ code: 'custom', path: ['scale'], message: 'scale needs min < max and at most 101 values' });
      }
    }
  });
export type DecideParams = z.input<typeof DecideParams>;

/** A typed answer with the probability of every possible answer (keys: `yes`/`no`, the options, or the scores). */
export const DecisionResult = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('noul'),
    model: z.string(),
    answer: z.enum(['yes', 'no']),
    probabilities: z.object({ yes: Probability, no: Probability }),
  }),
  z.object({ kind: z.literal('choice'), model: z.string(), answer: z.string(), probabilities: z.record(z.string(), Probability) }),
  z.object({ kind: z.literal('score'), model: z.string(), answer: z.number().int(), probabilities: z.record(z.string(), Probability) }),
]);
export type DecisionResult = z.infer<typeof DecisionResult>;

/** Typed questions to the hosted decisions model. */
export const decisionMethods = {
  /** Ask the hosted decisions model (serviceai, model `weka`) a typed question; independent of the chat's provider. */
  decide: { params: DecideParams, result: DecisionResult },
} as const;
