/**
 * Runtime errors in the editor's terms. The runtime words its errors for a terminal (`agentcli config set …`,
 * `--model …`) and names what fixes them in machine terms (`fix`: the config key and what to do). Here the key becomes
 * its setting (`agentcli.serviceai.baseUrl`), the remedy names the button that fixes it (errorActions.ts), and
 * terminal-only advice and protocol codes are left out (they go to the output channel). No `vscode` import.
 */
import type { ErrorFix, EventErrorCode } from '../../protocol/errors';
import { ProtocolError } from '../../sdk/errors';
import type { TranscriptItem } from '../../shared/chat/messages';
import { SET_API_KEY_COMMAND_TITLE } from './secret-items';
import { PROVIDER_SETTINGS, PROVIDERS, SECRET_SETTINGS, type ProviderName, type SecretSpec } from './table';
import { settingId } from './to-config';

export interface EditorError {
  message: string;
  remedy?: string;
  /** Only when the editor can offer its buttons (the key is one of its settings or secrets). */
  fix?: ErrorFix;
}

export function isSettingKey(key: string): boolean {
  return key !== 'mcpServers' && PROVIDER_SETTINGS.some((s) => s.key === key);
}

export function secretOf(key: string): SecretSpec | undefined {
  return SECRET_SETTINGS.find((s) => s.key === key);
}

/** `vendorapi` for `vendorapi.model`; undefined when the key is not a provider's. */
export function providerOfKey(key: string): ProviderName | undefined {
  const head = key.split('.')[0];
  return PROVIDERS.find((p) => p === head);
}

/** Whether the editor has the button for this fix: a setting to open, a secret to set, a provider's model, a provider. */
export function editorCanFix(fix: ErrorFix): boolean {
  switch (fix.action) {
    case 'set_base_url':
    case 'set_setting':
      return isSettingKey(fix.configKey);
    case 'set_key':
      return secretOf(fix.configKey) !== undefined;
    case 'set_model':
      return providerOfKey(fix.configKey) !== undefined;
    case 'select_provider':
      return true;
  }
}

/** Advice only a terminal can follow: a command line, a flag, a slash command. */
const TERMINAL_WORDING = /`?agentcli [a-z]|(?:^|\s|\()--[a-z]|\bconfig set\b|\(\/reset\)|\bpull [^\s]+`/;

/**
 * The text without its terminal-only clauses (`; ` / `, or ` / `(…)` separated); undefined when nothing is left.
 * Clauses are dropped whole, so what remains still reads as a sentence.
 */
export function withoutTerminalWording(text: string | undefined): string | undefined {
  if (text === undefined || !TERMINAL_WORDING.test(text)) return text;
  const kept = text
    .replace(/\s*\([^()]*\)/g, (group) => (TERMINAL_WORDING.test(group) ? '' : group))
    .split(/;\s+|,\s+or\s+|:\s+(?=[a-z])/)
    .filter((clause) => clause.trim() !== '' && !TERMINAL_WORDING.test(clause));
  return kept.length === 0 ? undefined : kept.join('; ');
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : `${t}.`;
}

/** The config key, where the runtime names it, as the setting (`serviceai.baseUrl is not set` → `agentcli.…`). */
function namingSetting(message: string, key: string): string {
  const setting = settingId(key);
  const quoted = message.split(`"${key}"`).join(setting);
  return quoted.startsWith(`${key} `) ? `${setting}${quoted.slice(key.length)}` : quoted;
}

function remedyFor(code: EventErrorCode, message: string, fix: ErrorFix): string {
  const setting = settingId(fix.configKey);
  const provider = providerOfKey(fix.configKey);
  const missing = / is not set\b/.test(message);
  switch (fix.action) {
    case 'set_base_url':
      return missing
        ? `Set ${setting} to the address of the ${provider ?? 'provider'} server (Open Settings), or choose another provider (Select Provider…).`
        : `Check that the server runs at that address, or set ${setting} to where it runs (Open Settings).`;
    case 'set_setting':
      if (fix.configKey === 'localrunner.enabled') return `Turn on ${setting} (Open Settings), or choose another provider with Select Provider….`;
      return missing ? `Set ${setting} (Open Settings).` : `Check ${setting} (Open Settings).`;
    case 'set_key': {
      const secret = secretOf(fix.configKey)!;
      return code === 'config_error'
        ? `Set one with '${SET_API_KEY_COMMAND_TITLE}'.`
        : `The ${secret.provider} ${secret.label} was refused: set it again with '${SET_API_KEY_COMMAND_TITLE}'.`;
    }
    case 'set_model':
      return code === 'context_too_long'
        ? `Start a new chat or attach less context, or choose a model with a larger context (Select Model…).`
        : `Choose another model with Select Model… (it is saved in ${settingId(`${provider}.model`)}).`;
    case 'select_provider':
      return 'Choose another provider with Select Provider….';
  }
}

/** One runtime error (event fields or JSON-RPC error data) in the editor's words. */
export function editorError(code: EventErrorCode, message: string, remedy: string | undefined, fix: ErrorFix | undefined): EditorError {
  if (fix !== undefined && editorCanFix(fix)) {
    const secret = fix.action === 'set_key' && code === 'config_error' ? secretOf(fix.configKey) : undefined;
    return {
      message: secret ? `No ${secret.label} for ${secret.provider}.` : sentence(withoutTerminalWording(namingSetting(message, fix.configKey)) ?? message),
      remedy: remedyFor(code, message, fix),
      fix,
    };
  }
  const shownMessage = sentence(withoutTerminalWording(message) ?? message);
  if (fix !== undefined && fix.action !== 'select_provider') {
    // a key only the config file has (`sandbox.mode`): say where it lives
    return { message: shownMessage, remedy: `Change "${fix.configKey}" in ~/.agentcli/config.json or in the project's .agentcli/config.json.` };
  }
  const kept = withoutTerminalWording(remedy);
  return { message: shownMessage, ...(kept ? { remedy: sentence(kept.charAt(0).toUpperCase() + kept.slice(1)) } : {}) };
}

/**
 * A failed request in the editor's words: the runtime's structured error data when it sent some, else the message
 * without the method name and the protocol code (those go to the output channel).
 */
export function editorErrorOf(e: unknown): EditorError {
  if (e instanceof ProtocolError) {
    // zod and the error schemas load with the first failed request, not at activation
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RpcErrorData } = require('../../protocol/errors') as typeof import('../../protocol/errors');
    const data = RpcErrorData.safeParse(e.data);
    if (data.success) return editorError(data.data.code, data.data.message, data.data.remedy, data.data.fix);
    const prefix = e.method ? `${e.method}: ` : '';
    const suffix = ` (code ${e.code})`;
    let text = e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
    if (text.endsWith(suffix)) text = text.slice(0, -suffix.length);
    return { message: sentence(withoutTerminalWording(text) ?? text) };
  }
  const text = e instanceof Error ? e.message : String(e);
  return { message: sentence(withoutTerminalWording(text) ?? text) };
}

/** One line for a notification: the message and its remedy. */
export function notificationText(error: EditorError, context?: string): string {
  const lead = context ? `${context}: ${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}` : error.message;
  return error.remedy ? `${sentence(lead)} ${error.remedy}` : sentence(lead);
}

/**
 * A saved chat's item as the editor shows it: a restored error in the same words as it was shown live, with the
 * setting's button when it named its fix (older saved chats have none: then no terminal-only advice is kept).
 */
export function inEditorWords(item: TranscriptItem): TranscriptItem {
  if (item.kind !== 'error' || item.code === 'extension') return item;
  const { remedy, fix, ...rest } = item;
  const shown = editorError(item.code, item.message, remedy, fix);
  return { ...rest, message: shown.message, ...(shown.remedy ? { remedy: shown.remedy } : {}), ...(shown.fix ? { fix: shown.fix } : {}) };
}
