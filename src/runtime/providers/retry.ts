/**
 * Bounded retries with exponential backoff and jitter, honouring the server's `retry-after` / `retry-after-ms`.
 * Only the caller decides what may be retried; streaming providers retry only before the first chunk is yielded.
 */
import { ProviderError, type RateLimitInfo } from './types';

export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms); doubled per retry. */
  baseDelayMs?: number;
  /** Upper bound of one backoff delay (default 20 s). */
  maxDelayMs?: number;
  /** A server asking to wait longer than this (default 60 s) is not retried; the error says how long to wait. */
  maxRetryAfterMs?: number;
  /** Told of each throttled attempt (a `rate_limited` error), with the wait before the next one. */
  onRateLimited?: (info: RateLimitInfo) => void;
}

export const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 20_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The delay a server asked for: `retry-after-ms` (milliseconds), else `retry-after` (seconds or an HTTP date). */
export function parseRetryAfterMs(headers: HeaderSource, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = header(headers, 'retry-after');
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff before retry number `retry` (0-based): base·2^retry capped at max, with jitter in [50%, 100%]. */
export function backoffDelayMs(retry: number, policy: RetryPolicy = {}, random: () => number = Math.random): number {
  const base = policy.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const cap = policy.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const exponential = Math.min(cap, base * 2 ** retry);
  return Math.round(exponential * (0.5 + random() * 0.5));
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error a cancelled operation rejects with: the signal's reason when it is an Error, else an AbortError. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('the request was aborted');
  err.name = 'AbortError';
  return err;
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/**
 * Runs `attempt` until it succeeds, fails with an error `retryable` rejects, or the retries are used up.
 * Errors must already be ProviderErrors (map them inside `attempt`); the last one is rethrown with the attempt count.
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  retryable: (err: ProviderError) => boolean,
  policy: RetryPolicy & { signal?: AbortSignal } = {},
): Promise<T> {
  const maxRetries = policy.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxRetryAfter = policy.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt(retry + 1);
    } catch (err) {
      if (policy.signal?.aborted) throw abortError(policy.signal);
      if (!(err instanceof ProviderError) || !retryable(err)) throw err;
      const asked = err.retryAfterMs;
      const throttled = err.code === 'rate_limited' ? policy.onRateLimited : undefined;
      if (asked !== undefined && asked > maxRetryAfter) {
        throttled?.({ attempt: retry + 1, retryAfterMs: asked, willRetry: false });
        throw withNote(err, `the server asked to wait ${seconds(asked)} before retrying`);
      }
      if (retry >= maxRetries) {
        throttled?.({ attempt: retry + 1, retryAfterMs: asked ?? 0, willRetry: false });
        throw withNote(err, `gave up after ${retry + 1} attempt${retry === 0 ? '' : 's'}`);
      }
      const delay = asked ?? backoffDelayMs(retry, policy);
      throttled?.({ attempt: retry + 1, retryAfterMs: delay, willRetry: true });
      await abortableSleep(delay, policy.signal);
    }
  }
}

function withNote(err: ProviderError, note: string): ProviderError {
  return new ProviderError(err.code, `${err.message} (${note})`, err.remedy, err.status, err.retryAfterMs, err.fix);
}
