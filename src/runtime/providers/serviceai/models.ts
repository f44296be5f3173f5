/**
 * The hosted service models (spec 000 §2.2, §8): limits, reasoning settings, the decisions-only model,
 * and the provider-qualified aliases the client accepts.
 */
import { ProviderError } from '../types';

export const SERVICEAI_DEFAULT_MODEL = 'fantail';
/** The model of typed decisions; its exact id at `/v1/decisions` (spec 000 §2.2 rule 3). */
export const DECISIONS_MODEL = 'weka';

export interface ServiceModelLimits {
  /** Input tokens. */
  contextWindow: number;
  /** Output tokens (absent: the model answers with a typed decision, not text). */
  maxOutput?: number;
}

/** Spec 000 §2.2 / §8. "K" is read as thousands, the smaller reading, so the client never asks for more. */
export const SERVICEAI_MODEL_LIMITS: Readonly<Record<string, ServiceModelLimits>> = {
  fantail: { contextWindow: 256_000, maxOutput: 16_000 },
  moa: { contextWindow: 1_000_000, maxOutput: 262_000 },
  weka: { contextWindow: 32_000 },
};

/** Models that take the request's reasoning setting (`medium`, `high`, `xhigh`). */
export const REASONING_MODELS: ReadonlySet<string> = new Set(['moa']);

/**
 * Alias syntax: `serviceai/<model>` or `serviceai:<model>` (provider part case-insensitive) names the same
 * model as the bare id, e.g. `serviceai/fantail` = `serviceai:fantail` = `fantail`. Requests always carry the
 * bare id. Other ids (third-party catalog models) are passed through unchanged.
 */
export function resolveServiceAiModel(selector: string): string {
  const s = selector.trim();
  const match = /^serviceai[/:](.+)$/i.exec(s);
  if (!match?.[1]) return s;
  return match[1].trim();
}

export const DECISIONS_ONLY_REASON =
  'answers typed decisions only and cannot run in chat; ask it with `agentcli decide` (or decide() in the SDK)';

/** The error for selecting the decisions model for a chat. */
export function decisionsOnlyError(): ProviderError {
  return new ProviderError(
    'config_error',
    `model "${DECISIONS_MODEL}" ${DECISIONS_ONLY_REASON}`,
    'choose "fantail" or "moa" for chat (--model serviceai/fantail), and ask decisions with `agentcli decide --kind choice --option a --option b "question"`',
    undefined,
    undefined,
    { action: 'set_model', configKey: 'serviceai.model' },
  );
}
