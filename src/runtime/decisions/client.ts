/**
 * Typed decisions from the hosted service: `POST {base_url}/v1/decisions` with `model: "weka"`.
 *
 * Request body (fields beyond `model` are this client's design; the spec leaves them out):
 *   { model: "weka", kind: "noul" | "choice" | "score", question, options?: string[], scale?: { min, max }, context? }
 * Answer body:
 *   { kind, answer, probabilities: { <possible answer>: number } }   (noul → yes/no; choice → the options;
 *   score → each integer of the scale, as text keys)
 */
import { DecideParams as DecideParamsSchema, type DecideParams, type DecisionResult } from '../../protocol';
import type { Config } from '../config/schema';
import { debugFetch, stderrSink, type DebugSink } from '../debug/debug-fetch';
import { SecretSet } from '../debug/redact';
import { serviceAiEndpoint } from '../providers/builders/serviceai';
import { fromHttpRefusal, safeProviderError, type ErrorContext } from '../providers/errors';
import { readJsonBody, sendNative } from '../providers/http/native-request';
import { DECISIONS_MODEL } from '../providers/serviceai/models';
import { planHint } from '../providers/serviceai/plans';
import { ProviderError } from '../providers/types';
import { checkDecisionInputLimit } from './limit';
import { parseDecisionResponse } from './response';

export const DECISION_TIMEOUT_MS = 60_000;

export interface DecideOptions {
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Where `debug: true` writes request logs (default stderr). */
  debugSink?: DebugSink;
}

/** The wire request for validated params. */
export function decisionRequestBody(params: DecideParams): Record<string, unknown> {
  return {
    model: DECISIONS_MODEL,
    kind: params.kind,
    question: params.question.trim(),
    ...(params.options ? { options: params.options.map((o) => o.trim()) } : {}),
    ...(params.kind === 'score' ? { scale: params.scale ?? { min: 1, max: 5 } } : {}),
    ...(params.context !== undefined && params.context.trim() !== '' ? { context: params.context } : {}),
  };
}

/** A decision request that breaks the rules of its kind; nothing was sent. */
export class InvalidDecisionRequest extends Error {
  constructor(readonly issues: string) {
    super(`invalid decision request: ${issues}`);
    this.name = 'InvalidDecisionRequest';
  }
}

/** Checks the params against the kind's rules (options for choice, scale for score). */
export function validateDecideParams(params: unknown): DecideParams {
  const parsed = DecideParamsSchema.safeParse(params);
  if (!parsed.success) {
    throw new InvalidDecisionRequest(parsed.error.issues.map((i) => `${i.path.join('.') || 'params'}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

/** Asks the decisions model; uses serviceai's baseUrl and key whatever provider the chat uses. */
export async function requestDecision(config: Config, rawParams: DecideParams, opts: DecideOptions = {}): Promise<DecisionResult> {
  const params = validateDecideParams(rawParams);
  checkDecisionInputLimit(params);
  const { baseUrl, apiKey } = serviceAiEndpoint(config.serviceai);
  const secrets = new SecretSet([apiKey]);
  const ctx: ErrorContext = { provider: 'serviceai', model: DECISIONS_MODEL, endpoint: baseUrl, secrets };
  const baseFetch = opts.fetch ?? fetch;
  const fetchFn = config.debug ? debugFetch(baseFetch, { label: 'decisions', secrets, sink: opts.debugSink ?? stderrSink }) : baseFetch;
  const response = await sendNative(
    fetchFn,
    {
      method: 'POST',
      url: `${baseUrl}/v1/decisions`,
      headers: { authorization: `Bearer ${apiKey}` },
      body: decisionRequestBody(params),
      timeoutMs: DECISION_TIMEOUT_MS,
      ...(opts.signal ? { signal: opts.signal } : {}),
    },
    ctx,
    (status, detail, codeText, headers) => withPlanHint(fromHttpRefusal({ status, detail, codeText, headers }, ctx)),
  );
  const body = await readJsonBody(response, 'the decision', ctx);
  try {
    return parseDecisionResponse(body, params, DECISIONS_MODEL);
  } catch (err) {
    throw safeProviderError(
      ctx,
      'provider_error',
      `the decisions endpoint ${baseUrl}/v1/decisions returned a malformed ${params.kind} answer: ${err instanceof Error ? err.message : String(err)}`,
      'retry; if it persists, the service does not follow the typed decision contract (kind, answer, probabilities) — check serviceai.baseUrl',
    );
  }
}

/** A 403 (or 404 for the model) names the plans that include the decisions model. */
function withPlanHint(err: ProviderError): ProviderError {
  if (err.code === 'not_in_plan') return err;
  if (!(err.status === 403 || (err.status === 404 && err.code === 'model_not_available'))) return err;
  return new ProviderError(
    err.code,
    err.message,
    `${DECISIONS_MODEL} may not be in your plan: it is ${planHint(DECISIONS_MODEL) ?? 'in higher plans'}. Upgrade the plan, or check the key (SERVICE_API_KEY)`,
    err.status,
    err.retryAfterMs,
  );
}
