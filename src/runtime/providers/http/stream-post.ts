/**
 * The chat-completions POST, over node:http / node:https directly. Not Node's fetch: loading fetch (undici) costs
 * about 50 ms of a CLI start, and a process that used it lingers about 200 ms at exit, more than the agent's own
 * work before its first request. A caller that passes its own fetch (debug logging, tests) still goes through it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { safeProviderError, type ErrorContext } from '../errors';
import type { ProviderError } from '../types';
import { errorDetail } from './native-request';

export interface StreamPostRequest {
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Aborting destroys the connection, before or after the answer began. */
  signal: AbortSignal;
}

export interface StreamPostResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it arrives; stopping early (return()) closes the connection. */
  body: AsyncIterator<Uint8Array>;
}

/** Sends a POST and resolves with the status, headers and body of the answer; rejects on a transport failure. */
export type StreamPost = (req: StreamPostRequest) => Promise<StreamPostResponse>;

/** Error answers are read up to this many bytes for their message. */
const ERROR_BODY_LIMIT = 64 * 1024;

/* eslint-disable @typescript-eslint/no-require-imports -- https (TLS) loads only for an https endpoint */
const httpModule = (url: URL) =>
  url.protocol === 'https:' ? (require('node:https') as typeof import('node:https')) : (require('node:http') as typeof import('node:http'));
/* eslint-enable @typescript-eslint/no-require-imports */

/** How a kept connection the server had closed while idle fails when reused (before any answer). */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * The node:http transport (keep-alive through the global agent, whose idle sockets do not hold the process open). A
 * request on a kept connection that fails before any answer, the way a connection the server closed while idle does,
 * is sent once more on a new connection: nothing was answered, and the server most likely never read it.
 */
export const nodeStreamPost: StreamPost = (req) => {
  const { url } = req;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new Error(`unsupported URL scheme ${url.protocol} in ${url.origin}: use http:// or https://`));
  }
  return postOnce(req).catch((err: unknown) => {
    if (!(err instanceof StaleSocketError) || req.signal.aborted) throw err instanceof StaleSocketError ? err.cause : err;
    return postOnce(req).catch((again: unknown) => {
      throw again instanceof StaleSocketError ? again.cause : again;
    });
  });
};

/** A request on a reused connection that failed before its answer began (see nodeStreamPost). */
class StaleSocketError extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

function postOnce({ url, headers, body, signal }: StreamPostRequest): Promise<StreamPostResponse> {
  return new Promise((resolve, reject) => {
    const request = httpModule(url).request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(body.byteLength) },
    });
    const onAbort = () => request.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', (err: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', onAbort);
      const stale = request.reusedSocket && !signal.aborted && STALE_SOCKET_CODES.has(err.code ?? '');
      reject(stale ? new StaleSocketError(err) : err);
    });
    request.on('response', (response) => {
      response.once('close', () => signal.removeEventListener('abort', onAbort));
      // A failure after the answer began surfaces through the body iterator; these keep it from going unhandled
      // when nothing reads the body any more (an abort after the reading stopped).
      request.on('error', () => undefined);
      response.on('error', () => undefined);
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: response[Symbol.asyncIterator]() });
    });
    request.end(body);
  });
}

/** How long a finished answer's body may take to end before its connection is closed instead of kept. */
const END_GRACE_MS = 50;
/** What may still come after an answer's end marker (a trailing line break, a comment) while waiting for the end. */
const END_TRAILER_LIMIT = 4;

/**
 * Lets go of an answer's body. After the stream's own end marker (`[DONE]`, a `done` line) a server ends the body at
 * once: reading on to that end puts the connection back in the keep-alive pool for the next request (a fresh
 * connection per turn costs round trips, a TLS handshake for https). A reading stopped for any other reason (abort,
 * failure, the consumer left) closes the body, and with it the connection. So does a body that sends more than a
 * trailer or does not end within END_GRACE_MS: `abandon` then destroys the connection (aborting the request), which
 * also ends the read left waiting, and the body is closed.
 */
export async function releaseBody(body: AsyncIterator<unknown>, finished: boolean, abandon: () => void): Promise<void> {
  if (finished) {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(resolve, END_GRACE_MS, 'expired');
    });
    try {
      for (let i = 0; i < END_TRAILER_LIMIT; i++) {
        const next = body.next();
        next.catch(() => undefined); // a read left waiting fails once abandoned below
        const read = await Promise.race([next, expired]);
        if (read === 'expired') break;
        if (read.done) return;
      }
    } catch {
      // the connection broke after the answer: nothing to keep
    } finally {
      clearTimeout(timer);
    }
    abandon();
  }
  await body.return?.();
}

/** The same request through a fetch function (the debug wrapper, a test's fake). */
export function fetchStreamPost(fetchFn: typeof fetch): StreamPost {
  return async ({ url, headers, body, signal }) => {
    // Buffers from node:buffer are backed by an ArrayBuffer (never a SharedArrayBuffer), which fetch takes.
    const response = await fetchFn(url, { method: 'POST', headers, body: body as Uint8Array<ArrayBuffer>, signal });
    const plain: IncomingHttpHeaders = {};
    response.headers.forEach((value, name) => {
      plain[name] = value;
    });
    const stream = (response.body ?? new Blob([]).stream()) as ReadableStream<Uint8Array> & AsyncIterable<Uint8Array>;
    return { status: response.status, headers: plain, body: stream[Symbol.asyncIterator]() };
  };
}

/** The text of an error answer (up to ERROR_BODY_LIMIT bytes) as errorDetail reads it; the rest is not waited for. */
export async function errorAnswer(body: AsyncIterator<Uint8Array>): Promise<{ detail: string; codeText: string }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_LIMIT) {
      const next = await body.next();
      if (next.done) break;
      parts.push(next.value);
      size += next.value.byteLength;
    }
  } catch {
    // a connection cut while reading the error text: use what arrived
  } finally {
    await body.return?.();
  }
  return errorDetail(Buffer.concat(parts).subarray(0, ERROR_BODY_LIMIT).toString('utf8'));
}

/**
 * The answer when it is 2xx. A redirect is not followed (the key and the prompt go only to the configured address): it
 * is an error naming where the server points. Any other status is the provider's refusal (`refuse`, given the error
 * text the server sent).
 */
export async function acceptedAnswer(
  answer: StreamPostResponse,
  ctx: ErrorContext,
  refuse: (refusal: { status: number; detail: string; codeText: string; headers: IncomingHttpHeaders }) => ProviderError,
): Promise<StreamPostResponse> {
  if (answer.status >= 200 && answer.status < 300) return answer;
  if (answer.status >= 300 && answer.status < 400) {
    await answer.body.return?.();
    throw redirectRefusal(answer.status, answer.headers.location, ctx);
  }
  const { detail, codeText } = await errorAnswer(answer.body);
  throw refuse({ status: answer.status, detail, codeText, headers: answer.headers });
}

/** Where a redirect points, cut to printable characters, so the base URL can be set to it. */
function redirectRefusal(status: number, location: string | undefined, ctx: ErrorContext): ProviderError {
  const target = location?.replace(/[^\x20-\x7e]/g, '').slice(0, 200);
  return safeProviderError(
    ctx,
    'provider_error',
    `${ctx.provider} at ${ctx.endpoint} answered with a redirect (HTTP ${status})${target ? ` to ${target}` : ''}; requests are not redirected`,
    `set ${ctx.provider}.baseUrl to the address the server points to`,
    status,
    undefined,
    { action: 'set_base_url', configKey: `${ctx.provider}.baseUrl` },
  );
}
