/**
 * The protocol's constants (ids, names, codes) in a module without schemas: a host that only needs these (the editor
 * extension's activation, the settings table) does not evaluate zod or build any schema for them. The schema modules
 * re-export them.
 */

/** The model providers (spec 000 §2.4): the one list the config, the CLI, the SDK and the editor derive theirs from. */
export const PROVIDER_IDS = ['serviceai', 'localrunner', 'ggufserver', 'vendorapi', 'cloudhub'] as const;

/** The permission modes (`permissionMode`). */
export const PERMISSION_MODES = ['interactive', 'restricted', 'unrestricted'] as const;

/** The run loop strategies (`--loop-type`, config `loopType`, SDK `loopType`); `react` is the default. */
export const LOOP_TYPES = ['react', 'plan-and-execute', 'parallel', 'reflexion'] as const;

/** A new skill's name: lower-case letters, digits and `-`, starting with a letter or digit, at most 64 characters. */
export const SKILL_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
export const SKILL_NAME_RULE = 'use lower-case letters, digits and "-", starting with a letter or digit, at most 64 characters (e.g. "api-testing")';

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
