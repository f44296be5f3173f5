/** JSON-RPC error codes used on the wire. Standard codes first, then the runtime's own (-32000..-32099). */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A method other than `initialize` was called before the handshake. */
  NotInitialized: -32002,
  /** The host's protocol version is not compatible with the runtime's. */
  ProtocolVersionMismatch: -32003,
  /** `prompt` while a run is active. */
  RunInProgress: -32010,
  /** `prompt` while a change batch is waiting for `decideChanges`. */
  BatchPending: -32011,
  /** A response named a request, batch, change or step id the runtime did not emit or already settled. */
  UnknownId: -32012,
  /** Configuration is invalid (names the file and key). */
  ConfigError: -32020,
  /** The selected provider or model cannot serve the request. */
  ProviderError: -32021,
} as const;
export type RpcErrorCode = (typeof RpcErrorCode)[keyof typeof RpcErrorCode];

/**
 * Codes carried by `error` events (spec 001 §6/§7). Each maps to a remedy the host can show.
 */
export const EventErrorCodes = [
  'auth_failed',
  /** A hosted model outside the caller's plan (the key is valid); the remedy names the plan that includes it. */
  'not_in_plan',
  'rate_limited',
  'context_too_long',
  'model_not_available',
  'connection_refused',
  'stream_timeout',
  'provider_error',
  'tool_error',
  /** The `pre-prompt` hook blocked the prompt (its stderr is the message) or could not run. */
  'hook_blocked',
  'config_error',
  'internal',
] as const;
export type EventErrorCode = (typeof EventErrorCodes)[number];
