/**
 * Pure helpers for keys: the "Set API Key…" quick pick items, the provider picker's key descriptions, and the
 * mapping of the runtime's missing-key config error to a remedy in VS Code terms (the runtime's own remedy is a
 * terminal command). No `vscode` import.
 */
import { SECRET_SETTINGS, type SecretSpec } from './table';

export type KeyStatus = 'set' | 'missing' | 'not-needed';

export function keyStatusText(status: KeyStatus): string {
  return status === 'set' ? 'key set' : status === 'missing' ? 'no key' : 'no key needed';
}

export interface SecretPickItem {
  label: string;
  description: string;
  secret: SecretSpec;
}

/** One row per secret: `serviceai` (API keys), `cloudhub client secret`; `stored` holds the keys that are set. */
export function secretPickItems(stored: ReadonlySet<string>): SecretPickItem[] {
  return SECRET_SETTINGS.map((s) => ({
    label: s.label === 'API key' ? s.provider : `${s.provider} ${s.label}`,
    description: stored.has(s.key) ? 'key set' : 'no key',
    secret: s,
  }));
}

/** The title of the command that asks for a key, as the palette shows it. */
export const SET_API_KEY_COMMAND_TITLE = 'agentcli: Set API Key…';

export interface MissingSecret {
  secret: SecretSpec;
  /** e.g. `No API key for serviceai.` */
  message: string;
  /** e.g. `Set one with 'agentcli: Set API Key…'.` */
  remedy: string;
}

/**
 * A run failed because a key the extension keeps in SecretStorage is missing: the runtime's `config_error`
 * (`serviceai.apiKey is not set: …`). Undefined for any other error, which keeps the runtime's own remedy.
 */
export function missingSecret(code: string, message: string): MissingSecret | undefined {
  if (code !== 'config_error') return undefined;
  const key = /^([a-z]+\.(?:apiKey|clientSecret)) is not set\b/.exec(message)?.[1];
  const secret = SECRET_SETTINGS.find((s) => s.key === key);
  if (!secret) return undefined;
  return {
    secret,
    message: `No ${secret.label} for ${secret.provider}.`,
    remedy: `Set one with '${SET_API_KEY_COMMAND_TITLE}'.`,
  };
}
