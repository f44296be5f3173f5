/**
 * Pure helpers for keys: the "Set API Key…" quick pick items and the provider picker's key descriptions (a missing
 * key's error is worded in error-wording.ts). No `vscode` import.
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
