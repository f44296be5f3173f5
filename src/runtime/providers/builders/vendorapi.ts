/** vendorapi: a direct vendor API account; key and model are required, the endpoint defaults to the package's own. */
import type { VendorApiSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { missingSetting, trimTrailingSlash } from './config-errors';

export function vendorApiOptions(settings: VendorApiSettings, model: string | undefined): OpenAICompatibleOptions {
  if (!settings.apiKey) throw missingSetting('vendorapi.apiKey', 'the vendor API needs an API key', 'VENDORAPI_API_KEY');
  const chosen = model ?? settings.model;
  if (!chosen) {
    throw missingSetting('vendorapi.model', 'choose a model id your account can use (or pass --model <id>)');
  }
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
