/**
 * Typed decisions through the runtime: `decide(client, { kind, question, options?, scale?, context? })` asks the
 * hosted decisions model and resolves with the answer and the probability of every possible answer.
 *
 *   const d = await decide(client, { kind: 'choice', question: 'Which release train?', options: ['stable', 'beta'] });
 *   d.answer;         // 'stable'
 *   d.probabilities;  // { stable: 0.81, beta: 0.19 }
 */
import { DecideParams, type DecisionKind, type DecisionResult } from '../protocol/methods';
import type { ParamsOf, ResultOf } from '../protocol/methods';
import { SdkError } from './errors';

/** The one method `decide` needs; a RuntimeClient (or an Agent's client) provides it. */
export interface DecisionClient {
  request(method: 'decide', params: ParamsOf<'decide'>): Promise<ResultOf<'decide'>>;
}

/** The answer type of one kind: `noul` → 'yes' | 'no', `choice` → an option, `score` → an integer. */
export type DecisionOf<K extends DecisionKind> = Extract<DecisionResult, { kind: K }>;

/** The params broke the rules of their kind (checked before anything is sent). */
export class InvalidDecisionParamsError extends SdkError {}

export async function decide<K extends DecisionKind>(
  client: DecisionClient,
  params: DecideParams & { kind: K },
): Promise<DecisionOf<K>> {
  const checked = DecideParams.safeParse(params);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; ');
    throw new InvalidDecisionParamsError(`invalid decision request: ${issues}`);
  }
  const result = await client.request('decide', checked.data);
  if (result.kind !== params.kind) {
    throw new SdkError(`the runtime answered a "${result.kind}" decision to a "${params.kind}" request`);
  }
  return result as DecisionOf<K>;
}
