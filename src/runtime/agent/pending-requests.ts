/**
 * Requests the runtime has put to its host (permission, directory access, step decision, editor tool call) and
 * is waiting on. Each is settled exactly once: by the host's answer, by abort (cancelled), or by a timeout.
 */
export class RequestCancelledError extends Error {
  constructor(readonly reason: 'aborted' | 'timeout') {
    super(reason === 'aborted' ? 'the run was aborted' : 'no answer arrived in time');
    this.name = 'RequestCancelledError';
  }
}

interface Entry<A> {
  kind: string;
  acknowledged: boolean;
  resolve: (answer: A) => void;
  reject: (e: Error) => void;
  info: Record<string, unknown>;
  timer?: NodeJS.Timeout;
}

export class PendingRequests {
  private readonly entries = new Map<string, Entry<unknown>>();

  /** Registers a request and returns the promise of its answer. The signal cancels it. */
  wait<A>(
    requestId: string,
    kind: string,
    info: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs?: number,
  ): Promise<A> {
    return new Promise<A>((resolve, reject) => {
      if (signal.aborted) {
        reject(new RequestCancelledError('aborted'));
        return;
      }
      const onAbort = () => this.settle(requestId, (e) => e.reject(new RequestCancelledError('aborted')));
      signal.addEventListener('abort', onAbort, { once: true });
      const entry: Entry<A> = {
        kind,
        acknowledged: false,
        info,
        resolve: (a) => {
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
        reject: (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => this.settle(requestId, (e) => e.reject(new RequestCancelledError('timeout'))), timeoutMs);
      }
      this.entries.set(requestId, entry as Entry<unknown>);
    });
  }

  /** Delivers the host's answer. Returns false when no request of that kind has this id. */
  answer<A>(requestId: string, kind: string, answer: A): boolean {
    const e = this.entries.get(requestId);
    if (!e || e.kind !== kind) return false;
    this.settle(requestId, (x) => x.resolve(answer));
    return true;
  }

  acknowledge(requestId: string, kind: string): boolean {
    const e = this.entries.get(requestId);
    if (!e || e.kind !== kind) return false;
    e.acknowledged = true;
    return true;
  }

  has(requestId: string, kind: string): boolean {
    return this.entries.get(requestId)?.kind === kind;
  }

  list(kind: string): Array<{ requestId: string; acknowledged: boolean; info: Record<string, unknown> }> {
    return [...this.entries]
      .filter(([, e]) => e.kind === kind)
      .map(([requestId, e]) => ({ requestId, acknowledged: e.acknowledged, info: e.info }));
  }

  private settle(requestId: string, fn: (e: Entry<unknown>) => void): void {
    const e = this.entries.get(requestId);
    if (!e) return;
    this.entries.delete(requestId);
    if (e.timer) clearTimeout(e.timer);
    fn(e);
  }
}
