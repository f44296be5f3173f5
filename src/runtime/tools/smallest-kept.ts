/**
 * The `limit` smallest items of a stream in a given order, in O(limit) memory: a search or listing streams any number
 * of results through it and holds only what it will show (a max-heap: the largest kept item is evicted first).
 */
export class SmallestKept<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** Whether `item` would be kept now (checked before costly work on an item, e.g. an ignore-rule verdict). */
  wouldKeep(item: T): boolean {
    return this.heap.length < this.limit || this.compare(item, this.heap[0] as T) < 0;
  }

  /** Whether `limit` items are kept (from now on an item is kept only if it sorts before the largest). */
  get full(): boolean {
    return this.heap.length >= this.limit;
  }

  /** The largest kept item (the next to be evicted). */
  largest(): T | undefined {
    return this.heap[0];
  }

  offer(item: T): void {
    if (!this.wouldKeep(item)) return;
    if (this.heap.length < this.limit) {
      this.heap.push(item);
      this.siftUp(this.heap.length - 1);
    } else {
      this.heap[0] = item;
      this.siftDown(0);
    }
  }

  /** The kept items, smallest first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(index: number): void {
    const { heap } = this;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(heap[i] as T, heap[parent] as T) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
      i = parent;
    }
  }

  private siftDown(index: number): void {
    const { heap } = this;
    let i = index;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let largest = i;
      if (left < heap.length && this.compare(heap[left] as T, heap[largest] as T) > 0) largest = left;
      if (right < heap.length && this.compare(heap[right] as T, heap[largest] as T) > 0) largest = right;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as T, heap[i] as T];
      i = largest;
    }
  }
}
