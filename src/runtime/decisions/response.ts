/**
 * Validates what `POST /v1/decisions` answered: the wire shape with zod, then the typed rules — the kind asked,
 * probabilities in [0, 1] that sum to 1, one probability per possible answer, and an answer among them.
 */
import * as z from '../../protocol/zod';
import { DecisionResult, type DecideParams } from '../../protocol';

/** The answer body as sent by the service; further fields are allowed and ignored. */
export const DecisionWireResponse = z.looseObject({
  kind: z.string(),
  answer: z.union([z.string(), z.number(), z.boolean()]),
  probabilities: z.record(z.string(), z.number()),
  model: z.string().optional(),
});

/** Probabilities may be rounded by the service; their sum must be within this of 1. */
export const PROBABILITY_SUM_TOLERANCE = 0.02;
const DEFAULT_SCALE = { min: 1, max: 5 };

/** The keys every answer of this request must carry a probability for. */
export function possibleAnswers(params: DecideParams): string[] {
  switch (params.kind) {
    case 'noul':
      return ['yes', 'no'];
    case 'choice':
      return [...(params.options ?? [])];
    case 'score': {
      const { min, max } = params.scale ?? DEFAULT_SCALE;
      return Array.from({ length: max - min + 1 }, (_, i) => String(min + i));
    }
  }
}

function answerText(answer: string | number | boolean, kind: string): string {
  if (typeof answer === 'boolean' && kind === 'noul') return answer ? 'yes' : 'no';
  return String(answer);
}

/**
 * The validated DecisionResult, or an Error whose message lists every problem (the caller wraps it).
 * Probabilities missing for some possible answers, unknown keys, a bad sum or an answer outside the
 * possible ones are all malformed.
 */
export function parseDecisionResponse(body: unknown, params: DecideParams, model: string): DecisionResult {
  const wire = DecisionWireResponse.safeParse(body);
  if (!wire.success) {
    throw new Error(wire.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  }
  const { kind, probabilities } = wire.data;
  const problems: string[] = [];
  if (kind !== params.kind) problems.push(`kind is "${kind}" but "${params.kind}" was asked`);
  const expected = possibleAnswers(params);
  const keys = Object.keys(probabilities);
  const missing = expected.filter((k) => !(k in probabilities));
  const unknown = keys.filter((k) => !expected.includes(k));
  if (missing.length > 0) problems.push(`no probability for ${missing.map((k) => `"${k}"`).join(', ')}`);
  if (unknown.length > 0) problems.push(`probabilities for answers that were not possible: ${unknown.map((k) => `"${k}"`).join(', ')}`);
  const bad = keys.filter((k) => !((probabilities[k] ?? NaN) >= 0 && (probabilities[k] ?? NaN) <= 1));
  if (bad.length > 0) problems.push(`probabilities outside 0..1 for ${bad.map((k) => `"${k}"`).join(', ')}`);
  const sum = keys.reduce((total, k) => total + (probabilities[k] ?? 0), 0);
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) problems.push(`probabilities sum to ${sum.toFixed(3)}, not 1`);
  const answer = answerText(wire.data.answer, kind);
  if (!expected.includes(answer)) problems.push(`answer "${answer}" is not one of ${expected.map((k) => `"${k}"`).join(', ')}`);
  if (problems.length > 0) throw new Error(problems.join('; '));
  const candidate = {
    kind: params.kind,
    model: wire.data.model ?? model,
    answer: params.kind === 'score' ? Number(answer) : answer,
    probabilities: Object.fromEntries(expected.map((k) => [k, probabilities[k]])),
  };
  const result = DecisionResult.safeParse(candidate);
  if (!result.success) throw new Error(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return result.data;
}
