import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { methods, type MethodName, type ParamsOf, type ResultOf } from '../protocol/methods';
import {
  InvalidArgumentError,
  InvalidResponseError,
  RequestTimeoutError,
  SdkError,
  protocolErrorFrom,
  toIssues,
} from './errors';

/** Something waiting on the runtime that must fail when the runtime goes away. */
export interface PendingWaiter {
  fail(error: Error): void;
}

export type Tracer = (dir: 'send' | 'recv', msg: unknown) => void;

/**
 * Typed requests over a JSON-RPC connection: params checked before sending, results validated with the
 * protocol's zod schemas, a per-request timeout, and every waiter failed at once when the runtime dies.
 */
export class RpcChannel {
  private readonly waiters = new Set<PendingWaiter>();
  private failure: Error | undefined;

  constructor(
    private readonly connection: MessageConnection,
    private readonly timeoutMs: number,
    private readonly trace: Tracer | undefined,
    /** Resolves with the error to report once the runtime has gone (used when the connection drops first). */
    private readonly whenGone: () => Promise<Error>,
  ) {}

  /** Registers a waiter; returns the function that unregisters it. */
  hold(waiter: PendingWaiter): () => void {
    if (this.failure) {
      waiter.fail(this.failure);
      return () => {};
    }
    this.waiters.add(waiter);
    return () => this.waiters.delete(waiter);
  }

  /** Fails every current and future waiter and request with `error`. */
  failAll(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const w of waiters) w.fail(error);
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  async request<M extends MethodName>(method: M, params: ParamsOf<M>, timeoutMs = this.timeoutMs): Promise<ResultOf<M>> {
    const spec = methods[method];
    const checked = spec.params.safeParse(params ?? {});
    if (!checked.success) {
      throw new InvalidArgumentError(`invalid params for "${method}"`, toIssues(checked.error.issues));
    }
    if (this.failure) throw this.failure;
    const raw = await this.send(method, checked.data, timeoutMs);
    const result = spec.result.safeParse(raw);
    if (!result.success) throw new InvalidResponseError(method, toIssues(result.error.issues));
    return result.data as ResultOf<M>;
  }

  private send(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        release();
        fn();
      };
      const timer = setTimeout(() => settle(() => reject(new RequestTimeoutError(method, timeoutMs))), timeoutMs);
      const release = this.hold({ fail: (e) => settle(() => reject(e)) });
      this.trace?.('send', { method, params });
      this.connection.sendRequest(method, params).then(
        (result: unknown) => {
          this.trace?.('recv', { method, result });
          settle(() => resolve(result));
        },
        (e: unknown) => {
          if (e instanceof ResponseError) {
            this.trace?.('recv', { method, error: { code: e.code, message: e.message, data: e.data } });
            settle(() => reject(protocolErrorFrom(method, e.code, e.message, e.data)));
            return;
          }
          // The connection closed or failed to write: report the runtime's exit rather than the transport symptom.
          void this.whenGone().then((gone) =>
            settle(() => reject(gone ?? new SdkError(`request "${method}" failed: ${(e as Error).message}`, { cause: e }))),
          );
        },
      );
    });
  }
}
