/** The `config_error` ProviderErrors raised when provider settings are missing or unsupported. */
import { fixForConfigKey } from '../../../protocol/errors';
import { ProviderError } from '../types';

/**
 * A required setting is missing: names the dotted key, its environment variable when there is one, and how to set it
 * in a terminal; `fix` names the key for hosts with their own settings.
 */
export function missingSetting(key: string, what: string, envVar?: string): ProviderError {
  const env = envVar ? ` or the environment variable ${envVar}` : '';
  return new ProviderError(
    'config_error',
    `${key} is not set: ${what}`,
    `set it with \`agentcli config set ${key} <value>\`${env}`,
    undefined,
    undefined,
    fixForConfigKey(key),
  );
}

/** Strips trailing slashes so paths can be appended safely. */
export function trimTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
