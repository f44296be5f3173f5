import * as z from './zod';
import { EventErrorCodes, RpcErrorCode } from './constants';

export { EventErrorCodes, RpcErrorCode };

export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

export type EventErrorCode = (typeof EventErrorCodes)[number];

const CONFIG_KEY = /^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*$/;

/**
 * What fixes an error, in machine terms: the host words it in its own terms (an editor names its setting and offers
 * the button; the CLI keeps its terminal wording in the message and remedy). `configKey` is the dotted config key
 * that is missing or wrong (`serviceai.baseUrl`, `vendorapi.apiKey`, `localrunner.model`).
 * - `set_base_url`: the provider's address is missing or does not answer.
 * - `set_key`: a secret (API key, client secret) is missing or was rejected.
 * - `set_model`: the model is missing, unknown, or cannot serve the request; choose another one.
 * - `set_setting`: another setting is missing or wrong.
 * - `select_provider`: the provider cannot be used as configured; choose another one.
 */
export const ErrorFixActions = ['set_base_url', 'set_key', 'set_model', 'set_setting', 'select_provider'] as const;
export type ErrorFixAction = (typeof ErrorFixActions)[number];
export const ErrorFix = z.object({
  action: z.enum(ErrorFixActions),
  configKey: z.string().regex(CONFIG_KEY, 'configKey must be a dotted config key such as serviceai.baseUrl'),
});
export type ErrorFix = z.infer<typeof ErrorFix>;

/**
 * The fix for a dotted config key: its address, its secret, its model, or another setting. Undefined for a path that
 * is no plain key (`permissions.allow[2]`).
 */
export function fixForConfigKey(key: string): ErrorFix | undefined {
  if (!CONFIG_KEY.test(key)) return undefined;
  const field = key.slice(key.lastIndexOf('.') + 1);
  if (field === 'baseUrl') return { action: 'set_base_url', configKey: key };
  if (field === 'apiKey' || field === 'clientSecret') return { action: 'set_key', configKey: key };
  if (field === 'model') return { action: 'set_model', configKey: key };
  if (key === 'provider') return { action: 'select_provider', configKey: key };
  return { action: 'set_setting', configKey: key };
}

/**
 * The `data` of a JSON-RPC error the runtime raises for a provider or configuration problem: the event error code,
 * the message and remedy apart (the error's own message joins them for terminals), and the fix when one is known.
 */
export const RpcErrorData = z.object({
  code: z.enum(EventErrorCodes),
  message: z.string(),
  remedy: z.string().optional(),
  fix: ErrorFix.optional(),
});
export type RpcErrorData = z.infer<typeof RpcErrorData>;
