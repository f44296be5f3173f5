/**
 * serviceai: the hosted service, chat under `{baseUrl}/v1` with a Bearer key.
 * Basic chat only here; plan-aware catalog, limits and decisions come with a later issue.
 */
import type { ServiceAiSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { ProviderError, type ModelInfo } from '../types';
import { missingSetting, trimTrailingSlash } from './config-errors';

export const SERVICEAI_DEFAULT_MODEL = 'fantail';
export const DECISIONS_ONLY_MODEL = 'weka';

/** Spec 000 §2.2 / §8 limits of the hosted models. */
export const SERVICEAI_MODEL_LIMITS: Record<string, { contextWindow: number; maxOutput?: number }> = {
  fantail: { contextWindow: 256_000, maxOutput: 16_000 },
  moa: { contextWindow: 1_000_000, maxOutput: 262_000 },
  weka: { contextWindow: 32_000 },
};

const DECISIONS_ONLY_REASON = 'answers typed decisions only and cannot run in chat; use `agentcli decide`';

/** One catalog entry of GET /v1/models as a ModelInfo: known limits added, `weka` marked unavailable for chat. */
export function describeServiceAiModel(entry: { id: string } & Record<string, unknown>): ModelInfo {
  const { id, ...extra } = entry;
  const limits = SERVICEAI_MODEL_LIMITS[id];
  const info: ModelInfo = { id, available: id !== DECISIONS_ONLY_MODEL, extra };
  if (id === DECISIONS_ONLY_MODEL) info.reason = DECISIONS_ONLY_REASON;
  if (limits) {
    info.contextWindow = limits.contextWindow;
    if (limits.maxOutput !== undefined) info.maxOutput = limits.maxOutput;
  }
  return info;
}

export function serviceAiOptions(settings: ServiceAiSettings, model: string | undefined): OpenAICompatibleOptions {
  const chosen = model ?? settings.model ?? SERVICEAI_DEFAULT_MODEL;
  if (chosen === DECISIONS_ONLY_MODEL) {
    throw new ProviderError(
      'config_error',
      `model "${DECISIONS_ONLY_MODEL}" ${DECISIONS_ONLY_REASON}`,
      `choose "fantail" or "moa" for chat (--model fantail), and ask decisions with \`agentcli decide\``,
    );
  }
  if (!settings.baseUrl) {
    throw missingSetting('serviceai.baseUrl', 'the address of the hosted service is unknown', 'SERVICE_BASE_URL');
  }
  if (!settings.apiKey) {
    throw missingSetting('serviceai.apiKey', 'the hosted service needs an API key', 'SERVICE_API_KEY');
  }
  const limits = SERVICEAI_MODEL_LIMITS[chosen];
  return {
    id: 'serviceai',
    model: chosen,
    baseURL: `${trimTrailingSlash(settings.baseUrl)}/v1`,
    apiKey: settings.apiKey,
    ...(chosen === 'moa' && settings.reasoning ? { extraBody: { reasoning_effort: settings.reasoning } } : {}),
    ...(limits ? { contextWindow: limits.contextWindow } : {}),
    describeModel: describeServiceAiModel,
  };
}
