import type { EventOf } from '../../protocol/events';

/** The terminal's line for a `rate_limited` event. */
export function rateLimitLine(e: EventOf<'rate_limited'>): string {
  const wait = e.retryAfterMs < 1000 ? `${Math.round(e.retryAfterMs)} ms` : `${Math.ceil(e.retryAfterMs / 1000)} s`;
  if (e.willRetry) return `${e.provider} is rate limiting requests (HTTP 429): retrying in ${wait} (attempt ${e.attempt + 1})`;
  return `${e.provider} is rate limiting requests (HTTP 429): not retried after attempt ${e.attempt}${e.retryAfterMs > 0 ? ` (it asked to wait ${wait})` : ''}`;
}
