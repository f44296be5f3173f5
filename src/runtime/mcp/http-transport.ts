/**
 * MCP over HTTP. Streamable HTTP (current servers): each message is POSTed to the server's URL, the answer comes back
 * as JSON or as an event stream; a GET opens the stream of the server's own notifications (`tools/list_changed`).
 * HTTP+SSE (servers of protocol 2024-11-05): a GET event stream whose first `endpoint` event names where to POST.
 * Redirects are refused (configured headers such as a token must not follow one to another host).
 */
import type { JsonRpcMessage } from './json-rpc-peer';
import { readSse } from './sse';
import { MAX_MESSAGE_BYTES, type McpTransport } from './transport';

export interface HttpServerSpec {
  url: string;
  headers: Record<string, string>;
}

/** The server answered with an HTTP error; 4xx to the first request means it may speak the older HTTP+SSE. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    what: string,
    body: string,
  ) {
    super(`${what}: HTTP ${status}${body ? ` (${body.slice(0, 300).trim()})` : ''}`);
    this.name = 'HttpStatusError';
  }
}

async function bodyText(res: Response): Promise<string> {
  try {
    return await res.text();
  } catch {
    return '';
  }
}

/** The body as text, refusing one over MAX_MESSAGE_BYTES (a server cannot fill the runtime's memory). */
async function boundedText(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_MESSAGE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the server sent an answer over ${MAX_MESSAGE_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class StreamableHttpTransport implements McpTransport {
  readonly kind = 'streamable-http';
  private readonly abort = new AbortController();
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private onMessage: (m: unknown) => void = () => undefined;
  private onClose: (e: Error) => void = () => undefined;
  private closed = false;

  constructor(private readonly spec: HttpServerSpec) {}

  start(onMessage: (message: unknown) => void, onClose: (error: Error) => void): Promise<void> {
    this.onMessage = onMessage;
    this.onClose = onClose;
    return Promise.resolve();
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    return {
      ...this.spec.headers,
      ...extra,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
      ...(this.protocolVersion ? { 'mcp-protocol-version': this.protocolVersion } : {}),
    };
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) throw new Error('the connection is closed');
    let res: Response;
    try {
      res = await fetch(this.spec.url, {
        method: 'POST',
        headers: this.headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
        body: JSON.stringify(message),
        signal: this.abort.signal,
        redirect: 'error',
      });
    } catch (e) {
      const cause = (e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message;
      const error = new Error(`cannot reach ${this.spec.url}: ${cause}`);
      if (this.sessionId) this.fail(error); // it was up: the server went away
      throw error;
    }
    const session = res.headers.get('mcp-session-id');
    if (session) this.sessionId = session;
    if (res.status === 404 && this.sessionId && message.method !== 'initialize') {
      this.fail(new Error('the server ended the session (HTTP 404)'));
      throw new HttpStatusError(404, 'the server ended the session', '');
    }
    if (!res.ok) throw new HttpStatusError(res.status, `POST ${this.spec.url}`, await bodyText(res));
    if (res.status === 202 || !res.body) return;
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream')) {
      void readSse(res.body, (e) => this.dispatch(e.data)).catch(() => undefined);
    } else if (type.includes('application/json')) {
      this.dispatch(await boundedText(res));
    } else {
      await bodyText(res);
    }
  }

  initialized(protocolVersion: string): void {
    this.protocolVersion = protocolVersion;
    void this.listen();
  }

  /** The server's notification stream (optional for servers: 405 means it has none). Reopened while it is offered. */
  private async listen(): Promise<void> {
    for (let attempt = 0; !this.closed && attempt < 5; attempt++) {
      try {
        const res = await fetch(this.spec.url, { method: 'GET', headers: this.headers({ accept: 'text/event-stream' }), signal: this.abort.signal, redirect: 'error' });
        if (!res.ok || !res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
          await bodyText(res);
          return;
        }
        await readSse(res.body, (e) => this.dispatch(e.data));
        attempt = 0;
      } catch {
        if (this.closed) return;
      }
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)).unref());
    }
  }

  private dispatch(data: string): void {
    if (data.trim() === '') return;
    try {
      this.onMessage(JSON.parse(data));
    } catch {
      // not JSON: skipped
    }
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.closed = true;
    this.abort.abort();
    this.onClose(error);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.sessionId) {
      await fetch(this.spec.url, { method: 'DELETE', headers: this.headers({}), signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    }
    this.abort.abort();
  }
}

/** The older HTTP+SSE transport: GET an event stream, POST each message to the endpoint its first event names. */
export class SseTransport implements McpTransport {
  readonly kind = 'sse';
  private readonly abort = new AbortController();
  private endpoint: string | undefined;
  private closed = false;

  constructor(private readonly spec: HttpServerSpec) {}

  async start(onMessage: (message: unknown) => void, onClose: (error: Error) => void): Promise<void> {
    const res = await fetch(this.spec.url, { method: 'GET', headers: { ...this.spec.headers, accept: 'text/event-stream' }, signal: this.abort.signal, redirect: 'error' });
    if (!res.ok || !res.body) throw new HttpStatusError(res.status, `GET ${this.spec.url}`, await bodyText(res));
    const body = res.body;
    await new Promise<void>((resolve, reject) => {
      let ready = false;
      readSse(body, (e) => {
        if (e.event === 'endpoint' && !ready) {
          const endpoint = new URL(e.data.trim(), this.spec.url);
          if (endpoint.origin !== new URL(this.spec.url).origin) {
            reject(new Error(`the server named an endpoint on another origin (${endpoint.origin}); refused`));
            return;
          }
          this.endpoint = endpoint.href;
          ready = true;
          resolve();
        } else if (e.event === 'message') {
          try {
            onMessage(JSON.parse(e.data));
          } catch {
            // not JSON: skipped
          }
        }
      })
        .then(() => {
          if (!ready) reject(new Error('the event stream ended before the server named its endpoint'));
          else if (!this.closed) onClose(new Error('the server closed its event stream'));
        })
        .catch((err: unknown) => {
          if (!ready) reject(err instanceof Error ? err : new Error(String(err)));
          else if (!this.closed) onClose(new Error(`the event stream failed: ${(err as Error).message}`));
        });
    });
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (!this.endpoint || this.closed) throw new Error('the connection is closed');
    const res = await fetch(this.endpoint, {
      method: 'POST',
      headers: { ...this.spec.headers, 'content-type': 'application/json' },
      body: JSON.stringify(message),
      signal: this.abort.signal,
      redirect: 'error',
    });
    const text = await bodyText(res);
    if (!res.ok) throw new HttpStatusError(res.status, `POST ${this.endpoint}`, text);
  }

  close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
    return Promise.resolve();
  }
}
