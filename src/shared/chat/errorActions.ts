/**
 * The buttons of an error that names its fix (`ErrorFix` from the runtime): the panel's error card shows them, the
 * extension's notifications offer the same, and a click comes back as `errorAction` (checked by the extension).
 * Imports nothing from vscode or the DOM, nor zod (the panel's error cards render before it loads).
 */
import type { ErrorFix } from '../../protocol/errors';

export const ErrorActionKinds = ['openSetting', 'selectModel', 'setApiKey', 'selectProvider'] as const;
export type ErrorActionKind = (typeof ErrorActionKinds)[number];

export function isErrorActionKind(value: unknown): value is ErrorActionKind {
  return (ErrorActionKinds as readonly unknown[]).includes(value);
}

export interface ErrorAction {
  kind: ErrorActionKind;
  label: string;
  /** The dotted config key the action is about (`serviceai.baseUrl`: the setting `agentcli.serviceai.baseUrl`). */
  configKey: string;
}

const SELECT_PROVIDER: Omit<ErrorAction, 'configKey'> = { kind: 'selectProvider', label: 'Select Provider…' };

/** The buttons for a fix, the one that repairs it first. */
export function errorActions(fix: ErrorFix): ErrorAction[] {
  const { configKey } = fix;
  switch (fix.action) {
    case 'set_base_url':
      return [{ kind: 'openSetting', label: 'Open Settings', configKey }, { ...SELECT_PROVIDER, configKey: 'provider' }];
    case 'set_setting':
      return [{ kind: 'openSetting', label: 'Open Settings', configKey }];
    case 'set_key':
      return [{ kind: 'setApiKey', label: configKey.endsWith('.clientSecret') ? 'Set Client Secret…' : 'Set API Key…', configKey }];
    case 'set_model':
      return [{ kind: 'selectModel', label: 'Select Model…', configKey }];
    case 'select_provider':
      return [{ ...SELECT_PROVIDER, configKey: 'provider' }];
  }
}
