/**
 * The fetch the MCP library's HTTP transports are given: a redirect is refused (the configured headers, such as a
 * token, must not follow one anywhere, not even within the origin), a server that cannot be reached is named in the
 * error, and a body is bounded: a JSON answer as a whole, an event stream per event (a server cannot fill memory).
 */
import { MAX_MESSAGE_BYTES } from './transport';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const LF = 10;
const CR = 13;

/** Passes `body` through, failing it once one message (the whole body, or one event of a stream) is too big. */
function bounded(body: ReadableStream<Uint8Array>, perEvent: boolean, url: string): ReadableStream<Uint8Array> {
  let size = 0;
  let previous = -1;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!perEvent) size += chunk.byteLength;
        else {
          for (const byte of chunk) {
            if (byte === CR) continue;
            // A blank line ends an event.
            size = byte === LF && previous === LF ? 0 : size + 1;
            previous = byte;
          }
        }
        if (size > MAX_MESSAGE_BYTES) controller.error(new Error(`${url} sent a message over ${MAX_MESSAGE_BYTES} bytes; it was refused`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

export async function mcpFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  let res: Response;
  try {
    res = await fetch(input, { ...init, redirect: 'manual' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
    throw new Error(`cannot reach ${url}: ${cause}`, { cause: e });
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => undefined);
    const location = res.headers.get('location');
    throw new Error(
      `${url} answered with a redirect (HTTP ${res.status}${location ? ` to ${location}` : ''}); redirects are refused so the configured headers stay with the configured server: set the final URL in mcpServers`,
    );
  }
  if (!res.body || NULL_BODY_STATUSES.has(res.status)) return res;
  const perEvent = (res.headers.get('content-type') ?? '').includes('text/event-stream');
  return new Response(bounded(res.body, perEvent, url), { status: res.status, statusText: res.statusText, headers: res.headers });
}
