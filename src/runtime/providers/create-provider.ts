/** Chooses and builds the ModelProvider for a run from the config and an optional provider/model selection. */
import type { Config } from '../config/schema';
import { debugFetch, stderrSink, type DebugSink } from '../debug/debug-fetch';
import { SecretSet } from '../debug/redact';
import type * as CloudHubBuilder from './builders/cloudhub';
import type * as GgufServerBuilder from './builders/ggufserver';
import type * as LocalRunnerBuilder from './builders/localrunner';
import type * as ServiceAiBuilder from './builders/serviceai';
import type * as VendorApiBuilder from './builders/vendorapi';
import type { CloudHubAuthTuning } from './cloudhub/token-source';
import { parseModelSelector } from './model-selector';
import { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai-compatible/provider';
import { ProviderError, type ModelProvider, type ProviderId } from './types';

export { parseModelSelector } from './model-selector';

export interface ProviderSelection {
  provider?: ProviderId;
  /** A model id, or `provider/model` (the provider part then selects the provider too). */
  model?: string;
}

/** Test and tuning hooks: timeouts, retries, fetch, where debug lines go, and the cloudhub identity endpoints. */
export type ProviderTuning = Pick<OpenAICompatibleOptions, 'idleTimeoutMs' | 'maxRetries' | 'retry' | 'fetch'> & {
  /** Where `debug: true` (SERVICE_DEBUG) writes its lines; default stderr. */
  debugSink?: DebugSink;
  cloudHubAuth?: CloudHubAuthTuning;
};

/** The secret values a provider knows from the config (keys and client secrets); tokens are added as obtained. */
export function configSecrets(config: Config): SecretSet {
  return new SecretSet([
    config.serviceai.apiKey,
    config.vendorapi.apiKey,
    config.cloudhub.apiKey,
    config.cloudhub.clientSecret,
  ]);
}

/**
 * Effective provider: sel.provider ?? (provider named in sel.model) ?? config.provider.
 * Effective model: sel.model ?? config.model ?? the provider's `model` setting ?? the provider's default.
 * With `config.debug` every HTTP request of the provider is logged, secrets redacted.
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
  const secrets = configSecrets(config);
  const { debugSink, cloudHubAuth, ...rest } = tuning;
  const sink = config.debug ? (debugSink ?? stderrSink) : undefined;
  const fetchFn = sink ? debugFetch(rest.fetch ?? fetch, { label: provider, secrets, sink }) : rest.fetch;
  const common = { ...rest, ...(fetchFn ? { fetch: fetchFn } : {}) };
  // Each provider's module loads only when it is used (the others may pull in HTTP or identity stacks).
  /* eslint-disable @typescript-eslint/no-require-imports */
  switch (provider) {
    case 'serviceai': {
      const { createServiceAiProvider } = require('./builders/serviceai') as typeof ServiceAiBuilder;
      return createServiceAiProvider(config.serviceai, model, common, secrets);
    }
    case 'localrunner': {
      if (config.localrunner.enabled === false) throw localRunnerDisabled();
      const { createLocalRunnerProvider } = require('./builders/localrunner') as typeof LocalRunnerBuilder;
      return createLocalRunnerProvider(config.localrunner, model, common);
    }
    case 'ggufserver': {
      const { ggufServerOptions } = require('./builders/ggufserver') as typeof GgufServerBuilder;
      return createOpenAICompatibleProvider({ ...ggufServerOptions(config.ggufserver, model), secrets, ...common });
    }
    case 'vendorapi': {
      const { vendorApiOptions } = require('./builders/vendorapi') as typeof VendorApiBuilder;
      return createOpenAICompatibleProvider({ ...vendorApiOptions(config.vendorapi, model), secrets, ...common });
    }
    case 'cloudhub': {
      const { cloudHubOptions } = require('./builders/cloudhub') as typeof CloudHubBuilder;
      const auth = { secrets, ...(cloudHubAuth ? { tuning: cloudHubAuth } : {}), ...(sink ? { debugSink: sink } : {}) };
      return createOpenAICompatibleProvider({ ...cloudHubOptions(config.cloudhub, model, auth), ...common });
    }
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** spec §2.4.1 `localrunner.enabled` enables the provider: `false` turns it off, so selecting it is a config error. */
function localRunnerDisabled(): ProviderError {
  return new ProviderError(
    'config_error',
    'the localrunner provider is selected but localrunner.enabled is false',
    'set it with `agentcli config set localrunner.enabled true`, or choose another provider (--provider <id>, SERVICE_PROVIDER, or `agentcli config set provider <id>`)',
    undefined,
    undefined,
    { action: 'set_setting', configKey: 'localrunner.enabled' },
  );
}

/**
 * The global `model` setting for the effective provider: without its `provider/` prefix; ignored when it names
 * another provider (then the provider's own `model` setting applies).
 */
function configModel(model: string | undefined, provider: ProviderId): string | undefined {
  if (model === undefined) return undefined;
  const parsed = parseModelSelector(model);
  if (parsed.provider === undefined) return model;
  return parsed.provider === provider ? parsed.model : undefined;
}
