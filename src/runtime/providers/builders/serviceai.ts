/**
 * serviceai: the hosted service, chat under `{baseUrl}/v1` with a Bearer key, the plan-aware catalog,
 * client-side limits and the reasoning setting of `moa`.
 */
import type { ServiceAiSettings } from '../../config/schema';
import { SecretSet } from '../../debug/redact';
import { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from '../openai-compatible/provider';
import { describeCatalogEntry } from '../serviceai/catalog';
import { decisionsOnlyError, DECISIONS_MODEL, REASONING_MODELS, resolveServiceAiModel, SERVICEAI_DEFAULT_MODEL, SERVICEAI_MODEL_LIMITS } from '../serviceai/models';
import { ServiceAiProvider } from '../serviceai/provider';
import { missingSetting, trimTrailingSlash } from './config-errors';


/** The address and key of the hosted service, or a config_error naming what is missing. */
export function serviceAiEndpoint(settings: ServiceAiSettings): { baseUrl: string; apiKey: string } {
  if (!settings.baseUrl) {
    throw missingSetting('serviceai.baseUrl', 'the address of the hosted service is unknown', 'SERVICE_BASE_URL');
  }
  if (!settings.apiKey) {
    throw missingSetting('serviceai.apiKey', 'the hosted service needs an API key', 'SERVICE_API_KEY (or SERVICE_AI_API_KEY)');
  }
  return { baseUrl: trimTrailingSlash(settings.baseUrl), apiKey: settings.apiKey };
}

/** The chat-completions options of a serviceai model: max output capped at the model's limit, reasoning for moa. */
export function serviceAiOptions(settings: ServiceAiSettings, model: string | undefined, secrets: SecretSet = new SecretSet()): OpenAICompatibleOptions {
  const chosen = resolveServiceAiModel(model ?? settings.model ?? SERVICEAI_DEFAULT_MODEL);
  if (chosen === DECISIONS_MODEL) throw decisionsOnlyError();
  const { baseUrl, apiKey } = serviceAiEndpoint(settings);
  const limits = SERVICEAI_MODEL_LIMITS[chosen];
  const reasoning = REASONING_MODELS.has(chosen) && settings.reasoning ? { reasoning_effort: settings.reasoning } : undefined;
  return {
    id: 'serviceai',
    model: chosen,
    baseURL: `${baseUrl}/v1`,
    apiKey,
    secrets,
    ...(reasoning ? { extraBody: reasoning } : {}),
    ...(limits ? { contextWindow: limits.contextWindow } : {}),
    ...(limits?.maxOutput !== undefined ? { maxTokens: limits.maxOutput } : {}),
    describeModel: describeCatalogEntry,
  };
}

export function createServiceAiProvider(
  settings: ServiceAiSettings,
  model: string | undefined,
  tuning: Partial<OpenAICompatibleOptions> = {},
  secrets: SecretSet = new SecretSet(),
): ServiceAiProvider {
  const options = { ...serviceAiOptions(settings, model, secrets), ...tuning };
  const { baseUrl, apiKey } = serviceAiEndpoint(settings);
  secrets.add(apiKey);
  return new ServiceAiProvider({
    chat: createOpenAICompatibleProvider(options),
    baseUrl,
    apiKey,
    fetch: tuning.fetch ?? fetch,
    errorContext: { provider: 'serviceai', model: options.model, endpoint: baseUrl, secrets },
  });
}
