/**
 * A buffered, replayable sequence: producers `push` and finally `end` (optionally with an error); every
 * iterator created by `iterate()` yields all items from the start, then live ones, then ends or throws.
 */
export class EventChannel<T> {
  private readonly items: T[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private wakers: Array<() => void> = [];

  get ended(): boolean {
    return this.done;
  }

  get buffered(): readonly T[] {
    return this.items;
  }

  push(item: T): void {
    if (this.done) return;
    this.items.push(item);
    this.wake();
  }

  /** Ends the sequence; with an error, iterators throw it after yielding the buffered items. Later calls are ignored. */
  end(error?: unknown): void {
    if (this.done) return;
    this.done = true;
    if (error !== undefined) this.failure = { error };
    this.wake();
  }

  iterate(): AsyncIterableIterator<T> {
    let index = 0;
    let closed = false;
    const next = async (): Promise<IteratorResult<T>> => {
      for (;;) {
        if (closed) return { done: true, value: undefined };
        if (index < this.items.length) return { done: false, value: this.items[index++] as T };
        if (this.done) {
          closed = true;
          if (this.failure) throw this.failure.error;
          return { done: true, value: undefined };
        }
        await new Promise<void>((resolve) => this.wakers.push(resolve));
      }
    };
    const iterator: AsyncIterableIterator<T> = {
      next,
      return: async () => {
        closed = true;
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return iterator;
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }
}
