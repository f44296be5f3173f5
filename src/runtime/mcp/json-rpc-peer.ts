/**
 * The JSON-RPC 2.0 side of an MCP connection, independent of the transport: numbered requests with a timeout and
 * cancellation (`notifications/cancelled`), the server's notifications, and answers to the few requests a server may
 * send the client (`ping`; anything else is "method not found", as this client declares no client capabilities).
 */

export type JsonRpcMessage = Record<string, unknown>;

export class McpRequestError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'McpRequestError';
  }
}

export class McpTimeoutError extends Error {
  constructor(method: string, ms: number) {
    super(`${method} got no answer within ${ms} ms`);
    this.name = 'McpTimeoutError';
  }
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cleanup(): void;
}

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

const isObject = (v: unknown): v is JsonRpcMessage => typeof v === 'object' && v !== null && !Array.isArray(v);

export class JsonRpcPeer {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closedError: Error | undefined;
  private readonly notificationHandlers = new Map<string, (params: unknown) => void>();

  /** `send` writes one message to the transport; it may fail (the request then fails with that error). */
  constructor(private readonly send: (message: JsonRpcMessage) => Promise<void>) {}

  onNotification(method: string, handler: (params: unknown) => void): void {
    this.notificationHandlers.set(method, handler);
  }

  request(method: string, params: unknown, opts: RequestOptions): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = () => {
        this.settle(id, undefined, new McpRequestError(`${method} was cancelled`));
        void this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'cancelled by the agent' } }).catch(() => undefined);
      };
      const timer = setTimeout(() => {
        this.settle(id, undefined, new McpTimeoutError(method, opts.timeoutMs));
        void this.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timed out' } }).catch(() => undefined);
      }, opts.timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, { method, resolve, reject, cleanup });
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }).catch((e: unknown) =>
        this.settle(id, undefined, e instanceof Error ? e : new Error(String(e))),
      );
    });
  }

  notify(method: string, params?: unknown): Promise<void> {
    return this.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  /** One message (or a batch) read from the transport. */
  handle(message: unknown): void {
    if (Array.isArray(message)) {
      for (const m of message) this.handle(m);
      return;
    }
    if (!isObject(message)) return;
    const method = typeof message.method === 'string' ? message.method : undefined;
    if (method !== undefined && 'id' in message) return this.answerServerRequest(message.id, method);
    if (method !== undefined) {
      try {
        this.notificationHandlers.get(method)?.(message.params);
      } catch {
        // a handler's failure is not the server's problem
      }
      return;
    }
    if (typeof message.id !== 'number') return;
    if (isObject(message.error)) {
      const code = typeof message.error.code === 'number' ? message.error.code : undefined;
      const text = typeof message.error.message === 'string' ? message.error.message : JSON.stringify(message.error);
      this.settle(message.id, undefined, new McpRequestError(text, code));
    } else {
      this.settle(message.id, message.result, undefined);
    }
  }

  /** Fails every pending request and any later one with `error` (the transport closed). */
  close(error: Error): void {
    this.closedError ??= error;
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, error);
  }

  private answerServerRequest(id: unknown, method: string): void {
    const reply =
      method === 'ping' ? { jsonrpc: '2.0', id, result: {} } : { jsonrpc: '2.0', id, error: { code: -32601, message: `method not found: ${method}` } };
    void this.send(reply).catch(() => undefined);
  }

  private settle(id: number, result: unknown, error: Error | undefined): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    p.cleanup();
    if (error) p.reject(error);
    else p.resolve(result);
  }
}
