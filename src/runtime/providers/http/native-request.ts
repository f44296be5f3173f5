/**
 * Plain HTTP requests for the endpoints that do not speak the chat-completions format (the local runner's
 * native API, the hosted catalog and decisions): one place that turns transport failures and error answers
 * into ProviderErrors, honours cancellation, and bounds the wait for an answer.
 */
import { fromHttpRefusal, fromNetworkFailure, safeProviderError, type ErrorContext } from '../errors';
import { abortError } from '../retry';
import { ProviderError } from '../types';

export interface NativeRequest {
  method: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** No response headers within this time → `stream_timeout`. */
  timeoutMs: number;
}

/** The message a server put in its error body: `{ error: "..." }`, `{ error: { message } }` or `{ message }`, else the text. */
export function errorDetail(text: string): { detail: string; codeText: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object') {
      const record = parsed as { error?: unknown; message?: unknown };
      if (typeof record.error === 'string') return { detail: record.error, codeText: '' };
      if (record.error !== null && typeof record.error === 'object') {
        const inner = record.error as { message?: unknown; code?: unknown; type?: unknown };
        const codeText = [inner.code, inner.type].filter((v): v is string => typeof v === 'string').join(' ');
        if (typeof inner.message === 'string') return { detail: inner.message, codeText };
      }
      if (typeof record.message === 'string') return { detail: record.message, codeText: '' };
    }
  } catch {
    // not JSON: use the text
  }
  const trimmed = text.trim();
  return { detail: trimmed.length > 0 ? trimmed.slice(0, 500) : 'no error message', codeText: '' };
}

/**
 * Sends the request and returns the response when its status is 2xx. Everything else becomes a ProviderError
 * (via `mapRefusal` when given, so a provider can name its own remedies); cancellation rethrows the abort reason.
 */
export async function sendNative(
  fetchFn: typeof fetch,
  req: NativeRequest,
  ctx: ErrorContext,
  mapRefusal: (status: number, detail: string, codeText: string, headers: Headers) => ProviderError = (status, detail, codeText, headers) =>
    fromHttpRefusal({ status, detail, codeText, headers }, ctx),
): Promise<Response> {
  if (req.signal?.aborted) throw abortError(req.signal);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  const onAbort = () => controller.abort(req.signal?.reason);
  req.signal?.addEventListener('abort', onAbort, { once: true });
  let response: Response;
  try {
    response = await fetchFn(req.url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers },
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      signal: controller.signal,
    });
  } catch (err) {
    if (req.signal?.aborted) throw abortError(req.signal);
    if (timedOut) {
      throw safeProviderError(
        ctx,
        'stream_timeout',
        `${ctx.provider} at ${ctx.endpoint} did not answer within ${Math.round(req.timeoutMs / 1000)} s`,
        'retry; if it persists, check that the server is not overloaded',
      );
    }
    throw fromNetworkFailure(err, ctx);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
  if (response.ok) return response;
  const text = await response.text().catch(() => '');
  const { detail, codeText } = errorDetail(text);
  throw mapRefusal(response.status, detail, codeText, response.headers);
}

/** Reads a JSON body; a body that is not JSON is a clear `provider_error` naming what was expected. */
export async function readJsonBody(response: Response, what: string, ctx: ErrorContext): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw safeProviderError(
      ctx,
      'provider_error',
      `${ctx.provider} at ${ctx.endpoint} answered ${what} with something that is not JSON: ${text.slice(0, 200)}`,
      `check that ${ctx.endpoint} is the right server`,
    );
  }
}
