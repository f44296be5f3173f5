/**
 * The decisions model's input limit (spec 000 §2.2 / §8: weka, 32K input), checked before a decision is sent,
 * with the same upper-leaning estimate as the chat limit check of the hosted models.
 */
import type { DecideParams } from '../../protocol';
import { BYTES_PER_TOKEN_ESTIMATE, estimateInputTokens } from '../providers/serviceai/limits';
import { DECISIONS_MODEL, SERVICEAI_MODEL_LIMITS } from '../providers/serviceai/models';
import { ProviderError } from '../providers/types';

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The input tokens of a decision request (question, options and context), estimated as for a chat. */
export function estimateDecisionTokens(params: Pick<DecideParams, 'question' | 'options' | 'context'>): number {
  const parts = [params.question, ...(params.options ?? []), params.context ?? ''].filter((p) => p.length > 0);
  return estimateInputTokens({ messages: parts.map((content) => ({ role: 'user' as const, content })), tools: [] });
}

/** Throws `context_too_long` with the limit and the estimate when the decision would not fit; nothing is sent then. */
export function checkDecisionInputLimit(params: Pick<DecideParams, 'question' | 'options' | 'context'>): void {
  const limit = SERVICEAI_MODEL_LIMITS[DECISIONS_MODEL]?.contextWindow;
  if (limit === undefined) return;
  const estimate = estimateDecisionTokens(params);
  if (estimate <= limit) return;
  throw new ProviderError(
    'context_too_long',
    `the decision input is too long for "${DECISIONS_MODEL}": about ${fmt(estimate)} tokens for the question, options and context (an estimate of 1 token per ${BYTES_PER_TOKEN_ESTIMATE} bytes, which errs on the high side) against its limit of ${fmt(limit)} input tokens; nothing was sent`,
    `shorten the question or --context (the SDK's decide({ context })) to under about ${fmt(limit * BYTES_PER_TOKEN_ESTIMATE)} bytes in all, e.g. pass a summary or only the relevant part of the diff or log`,
  );
}
