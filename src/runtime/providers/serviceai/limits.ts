/**
 * Client-side input limits of the hosted models: a prompt over the model's input context is refused before
 * any request is sent. Token counts are estimated (the service's tokenizer is not public) and the estimate
 * errs on the high side, so a prompt that passes the check is not cut by the server for length.
 */
import type { ChatRequest } from '../types';
import { ProviderError } from '../types';

/** One token per this many UTF-8 bytes: tokenizers average about 4 for English and 3 for code. */
export const BYTES_PER_TOKEN_ESTIMATE = 3;
/** Per-message framing (role, separators) added by chat formats. */
const TOKENS_PER_MESSAGE = 4;

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** An upper-leaning estimate of the input tokens of a request: messages, tool calls and tool schemas. */
export function estimateInputTokens(req: Pick<ChatRequest, 'messages' | 'tools'>): number {
  let total = 0;
  for (const m of req.messages) {
    let size = bytes(m.content);
    for (const call of m.toolCalls ?? []) size += bytes(call.name) + bytes(call.arguments);
    total += Math.ceil(size / BYTES_PER_TOKEN_ESTIMATE) + TOKENS_PER_MESSAGE;
  }
  if (req.tools.length > 0) total += Math.ceil(bytes(JSON.stringify(req.tools)) / BYTES_PER_TOKEN_ESTIMATE);
  return total;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/**
 * Throws `context_too_long` naming the estimate, the limit and what to do, when the request would not fit.
 * `larger` names a model with a bigger input context to suggest, if any.
 */
export function checkInputLimit(
  model: string,
  contextWindow: number,
  req: Pick<ChatRequest, 'messages' | 'tools'>,
  larger?: { model: string; contextWindow: number },
): void {
  const estimate = estimateInputTokens(req);
  if (estimate <= contextWindow) return;
  const switchHint =
    larger && larger.contextWindow >= estimate
      ? `, or switch to ${larger.model} (${fmt(larger.contextWindow)} input tokens): --model serviceai/${larger.model}`
      : '';
  throw new ProviderError(
    'context_too_long',
    `the prompt is too long for serviceai model "${model}": about ${fmt(estimate)} tokens (an estimate of 1 token per ${BYTES_PER_TOKEN_ESTIMATE} bytes, which errs on the high side) against its limit of ${fmt(contextWindow)} input tokens; nothing was sent`,
    `shorten the input: start a new conversation (/reset), attach less context or trim large files${switchHint}`,
    undefined,
    undefined,
    switchHint ? { action: 'set_model', configKey: 'serviceai.model' } : undefined,
  );
}
