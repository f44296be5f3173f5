export { debugFetch, stderrSink, DEBUG_BODY_LIMIT, type DebugSink, type DebugFetchOptions } from './debug-fetch';
export { SecretSet, redactText, redactHeaders, redactBody, redactUrl, isSecretHeader, REDACTED } from './redact';
