/** vendorapi: a direct vendor API account; the key is required, the model has a default, the endpoint defaults to the package's own. */
import type { VendorApiSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { missingSetting, trimTrailingSlash } from './config-errors';

export function vendorApiOptions(settings: VendorApiSettings, model: string | undefined): OpenAICompatibleOptions {
  if (!settings.apiKey) throw missingSetting('vendorapi.apiKey', 'the vendor API needs an API key', 'VENDORAPI_API_KEY');
  const chosen = model ?? settings.model;
  return {
    id: 'vendorapi',
    model: chosen,
    apiKey: settings.apiKey,
    ...(settings.baseUrl ? { baseURL: trimTrailingSlash(settings.baseUrl) } : {}),
    ...(settings.organization ? { organization: settings.organization } : {}),
    maxTokens: settings.maxTokens,
    temperature: settings.temperature,
    ...(settings.topP !== undefined ? { topP: settings.topP } : {}),
    includeUsage: true,
  };
}
