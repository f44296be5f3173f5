import { RpcErrorCode, type ErrorFix, type EventErrorCode, type RpcErrorData } from '../../protocol/errors';
import { ConfigError } from '../config/errors';
import { ProviderError } from '../providers/types';
import { PromptSetupError } from './system-prompt';

/** A request the runtime refuses, with the JSON-RPC error code the host receives. */
export class RuntimeRequestError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
    /** The JSON-RPC error's `data`: the error's parts and the setting that fixes it, when known. */
    readonly data?: RpcErrorData,
  ) {
    super(message);
    this.name = 'RuntimeRequestError';
  }
}

/** What an `error` event carries: a code from the protocol's list, the message and, when known, the remedy. */
export interface EventErrorInfo {
  code: EventErrorCode;
  message: string;
  remedy?: string;
  fix?: ErrorFix;
}

/**
 * Maps anything thrown during a run to an `error` event's fields. Only the runtime's own typed errors choose the code
 * (by class, never by name strings); anything else — a Node `ENOENT`, a library error with its own `code` — is
 * `internal`, so no foreign code reaches the wire and breaks a host's event validation.
 */
export function toEventError(error: unknown): EventErrorInfo {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ProviderError) return { code: error.code, message, remedy: error.remedy, ...(error.fix ? { fix: error.fix } : {}) };
  if (error instanceof ConfigError) return { code: 'config_error', message, ...(error.fix ? { fix: error.fix } : {}) };
  if (error instanceof PromptSetupError) return { code: 'config_error', message };
  return { code: 'internal', message };
}

/**
 * The `data` of the JSON-RPC error for a provider or configuration failure: code, message, remedy and fix apart, so a
 * host can word it in its own terms. Undefined for any other failure.
 */
export function rpcErrorData(error: unknown): RpcErrorData | undefined {
  if (!(error instanceof ProviderError) && !(error instanceof ConfigError)) return undefined;
  const { code, message, remedy, fix } = toEventError(error);
  return { code, message, ...(remedy ? { remedy } : {}), ...(fix ? { fix } : {}) };
}
