/** Chooses and builds the ModelProvider for a run from the config and an optional provider/model selection. */
import type { Config } from '../config/schema';
import { cloudHubOptions } from './builders/cloudhub';
import { notImplemented } from './builders/config-errors';
import { ggufServerOptions } from './builders/ggufserver';
import { serviceAiOptions } from './builders/serviceai';
import { vendorApiOptions } from './builders/vendorapi';
import { parseModelSelector } from './model-selector';
import { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai-compatible/provider';
import { ProviderError, type ModelProvider, type ProviderId } from './types';

export { parseModelSelector } from './model-selector';

export interface ProviderSelection {
  provider?: ProviderId;
  /** A model id, or `provider/model` (the provider part then selects the provider too). */
  model?: string;
}

/** Test and tuning hooks passed through to the OpenAI-compatible core (timeouts, retries, fetch). */
export type ProviderTuning = Pick<OpenAICompatibleOptions, 'idleTimeoutMs' | 'maxRetries' | 'retry' | 'fetch'>;

/**
 * Effective provider: sel.provider ?? (provider named in sel.model) ?? config.provider.
 * Effective model: sel.model ?? config.model ?? the provider's `model` setting ?? the provider's default.
 * Throws a ProviderError `config_error` naming the missing or unsupported setting.
 */
export function createProvider(config: Config, sel: ProviderSelection = {}, tuning: ProviderTuning = {}): ModelProvider {
  const parsed = sel.model !== undefined ? parseModelSelector(sel.model) : undefined;
  if (sel.provider && parsed?.provider && parsed.provider !== sel.provider) {
    throw new ProviderError(
      'config_error',
      `the model "${sel.model}" names provider "${parsed.provider}" but provider "${sel.provider}" was selected`,
      `pass either --provider ${sel.provider} --model ${parsed.model}, or only --model ${sel.model}`,
    );
  }
  const provider = sel.provider ?? parsed?.provider ?? config.provider;
  const model = parsed?.model ?? configModel(config.model, provider);
  return createOpenAICompatibleProvider({ ...providerOptions(config, provider, model), ...tuning });
}

/** The global `model` setting, without a `provider/` prefix naming the effective provider. */
function configModel(model: string | undefined, provider: ProviderId): string | undefined {
  if (model === undefined) return undefined;
  const parsed = parseModelSelector(model);
  return parsed.provider === provider ? parsed.model : model;
}

function providerOptions(config: Config, provider: ProviderId, model: string | undefined): OpenAICompatibleOptions {
  switch (provider) {
    case 'serviceai':
      return serviceAiOptions(config.serviceai, model);
    case 'ggufserver':
      return ggufServerOptions(config.ggufserver, model);
    case 'vendorapi':
      return vendorApiOptions(config.vendorapi, model);
    case 'cloudhub':
      return cloudHubOptions(config.cloudhub, model);
    case 'localrunner':
      throw notImplemented(
        'the localrunner provider (its native API)',
        'choose another provider for now, e.g. `--provider ggufserver` or `agentcli config set provider serviceai`',
      );
  }
}
