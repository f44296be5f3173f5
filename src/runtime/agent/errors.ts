import { RpcErrorCode, type EventErrorCode } from '../../protocol/errors';
import { ConfigError } from '../config/errors';
import { ProviderError } from '../providers/types';
import { PromptSetupError } from './system-prompt';

/** A request the runtime refuses, with the JSON-RPC error code the host receives. */
export class RuntimeRequestError extends Error {
  constructor(
    readonly code: RpcErrorCode,
    message: string,
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
}

/**
 * Maps anything thrown during a run to an `error` event's fields. Only the runtime's own typed errors choose the code
 * (by class, never by name strings); anything else — a Node `ENOENT`, a library error with its own `code` — is
 * `internal`, so no foreign code reaches the wire and breaks a host's event validation.
 */
export function toEventError(error: unknown): EventErrorInfo {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ProviderError) return { code: error.code, message, remedy: error.remedy };
  if (error instanceof ConfigError) return { code: 'config_error', message };
  if (error instanceof PromptSetupError) return { code: 'config_error', message };
  return { code: 'internal', message };
}
