/**
 * Asks inline for what a provider switch is missing, as the runtime's dry run named it: an address (an input box that
 * takes only an http(s) URL), a key (a password box; it goes to SecretStorage only when the switch is saved), or
 * another setting of that provider. The answers are kept in `tried` until the transaction saves them.
 */
import * as vscode from 'vscode';
import type { ErrorFix } from '../../protocol/errors';
import { providerOfKey, secretOf } from '../settings/error-wording';
import type { SettingsStore } from '../settings/settings-transaction';
import { PROVIDER_SETTINGS, type ProviderName, type SettingSpec } from '../settings/table';
import { checkSetting, settingId } from '../settings/to-config';

/** Settings and keys entered during one switch, by dotted key; nothing of it is saved yet. */
export interface TriedSettings {
  settings: Map<string, unknown>;
  secrets: Map<string, string>;
}

/** `asked`: try again with the answer; `cancelled`: the user backed out; `cannot`: no question fixes it. */
export type AskAnswer = 'asked' | 'cancelled' | 'cannot';

function currentValue(key: string, tried: TriedSettings, settings: SettingsStore, spec: SettingSpec): unknown {
  return tried.settings.get(key) ?? settings.valueIn(key, settings.targetOf(key)) ?? spec.default;
}

async function askText(key: string, spec: SettingSpec, problem: string, tried: TriedSettings, settings: SettingsStore): Promise<AskAnswer> {
  const setting = settingId(key);
  const current = currentValue(key, tried, settings, spec);
  const url = spec.type === 'string' && spec.format === 'url';
  const value = await vscode.window.showInputBox({
    title: url ? `Address for ${providerOfKey(key) ?? 'the provider'} (${setting})` : setting,
    prompt: `${problem} ${url ? 'Enter the http:// or https:// address of the server.' : spec.description} It is saved in ${setting} once the switch works.`,
    value: typeof current === 'string' ? current : '',
    placeHolder: url ? 'https://…' : undefined,
    ignoreFocusOut: true,
    validateInput: (text) => {
      const problemWith = text.trim() === '' ? 'is empty' : checkSetting(spec, text.trim());
      return problemWith ? `${setting} ${problemWith}` : undefined;
    },
  });
  if (value === undefined) return 'cancelled';
  tried.settings.set(key, value.trim());
  return 'asked';
}

async function askKey(key: string, problem: string, tried: TriedSettings): Promise<AskAnswer> {
  const secret = secretOf(key);
  if (!secret) return 'cannot';
  const value = await vscode.window.showInputBox({
    title: `${secret.provider} ${secret.label}`,
    prompt: `${problem} Paste the ${secret.provider} ${secret.label}. It is kept in VS Code's secret storage, never in settings files, once the switch works.`,
    password: true,
    ignoreFocusOut: true,
    placeHolder: secret.label,
    validateInput: (text) => (text.trim() === '' ? `Paste the ${secret.label}, or press Escape to cancel.` : undefined),
  });
  if (value === undefined || value.trim() === '') return 'cancelled';
  tried.secrets.set(key, value.trim());
  return 'asked';
}

async function askSwitch(key: string, problem: string, tried: TriedSettings): Promise<AskAnswer> {
  const turnOn = `Turn on ${settingId(key)}`;
  const picked = await vscode.window.showQuickPick([turnOn], { title: problem, placeHolder: 'It is saved once the switch works.' });
  if (picked === undefined) return 'cancelled';
  tried.settings.set(key, true);
  return 'asked';
}

/**
 * Asks for the setting `fix` names when it belongs to `provider` (another provider's setting is not this switch's
 * to fix) and the editor has a question for it. `problem` (the error in editor words) heads the question.
 */
export async function askForFix(fix: ErrorFix, provider: ProviderName | undefined, tried: TriedSettings, problem: string, settings: SettingsStore): Promise<AskAnswer> {
  const { configKey: key } = fix;
  if (provider !== undefined && providerOfKey(key) !== provider) return 'cannot';
  if (fix.action === 'set_key') return askKey(key, problem, tried);
  if (fix.action !== 'set_base_url' && fix.action !== 'set_setting') return 'cannot';
  const spec = PROVIDER_SETTINGS.find((s) => s.key === key);
  if (spec?.type === 'boolean') return askSwitch(key, problem, tried);
  return spec?.type === 'string' ? askText(key, spec, problem, tried, settings) : 'cannot';
}
