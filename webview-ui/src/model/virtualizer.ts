/**
 * Window math for the virtualized transcript. Pure: no DOM. Heights are estimated until measured, kept per item,
 * and summed in a Fenwick tree so offset and hit-test lookups stay O(log n) in long sessions.
 */

export class HeightIndex {
  private heights: number[] = [];
  private measured: boolean[] = [];
  /** Fenwick tree, 1-based, sized to `capacity` (a power of two). */
  private tree: Float64Array = new Float64Array(1);
  private capacity = 0;

  constructor(private readonly estimate: number) {
    if (!(estimate > 0)) throw new Error(`HeightIndex: the estimated item height must be positive, got ${estimate}`);
  }

  get count(): number {
    return this.heights.length;
  }

  /** Grow with estimated heights, or drop items from the end. */
  setCount(n: number): void {
    if (n < this.heights.length) {
      this.heights.length = n;
      this.measured.length = n;
      this.rebuild(this.capacity);
      return;
    }
    if (n > this.capacity) {
      let cap = Math.max(16, this.capacity);
      while (cap < n) cap *= 2;
      while (this.heights.length < n) {
        this.heights.push(this.estimate);
        this.measured.push(false);
      }
      this.rebuild(cap);
      return;
    }
    while (this.heights.length < n) {
      this.heights.push(this.estimate);
      this.measured.push(false);
      this.add(this.heights.length - 1, this.estimate);
    }
  }

  height(i: number): number {
    return this.heights[i] ?? 0;
  }

  isMeasured(i: number): boolean {
    return this.measured[i] ?? false;
  }

  /** Record a measured height; returns how much it changed. */
  setHeight(i: number, h: number): number {
    const old = this.heights[i];
    if (old === undefined || !(h >= 0)) return 0;
    this.measured[i] = true;
    if (old === h) return 0;
    this.heights[i] = h;
    this.add(i, h - old);
    return h - old;
  }

  /** Sum of the heights of items [0, i). */
  offsetOf(i: number): number {
    let sum = 0;
    for (let k = Math.min(Math.max(i, 0), this.heights.length); k > 0; k -= k & -k) sum += this.tree[k] ?? 0;
    return sum;
  }

  total(): number {
    return this.offsetOf(this.heights.length);
  }

  /** The item covering vertical position `y` (clamped to the list). -1 when the list is empty. */
  indexAt(y: number): number {
    const n = this.heights.length;
    if (n === 0) return -1;
    if (y <= 0) return 0;
    // Largest pos with prefix(pos) <= y: items [0, pos) end at or above y, so item `pos` covers it.
    let pos = 0;
    let remaining = y;
    for (let step = this.capacity; step > 0; step >>= 1) {
      const next = pos + step;
      const value = this.tree[next];
      if (next <= this.capacity && value !== undefined && value <= remaining) {
        pos = next;
        remaining -= value;
      }
    }
    return Math.min(pos, n - 1);
  }

  private add(i: number, delta: number): void {
    for (let k = i + 1; k <= this.capacity; k += k & -k) this.tree[k] = (this.tree[k] ?? 0) + delta;
  }

  private rebuild(capacity: number): void {
    this.capacity = capacity;
    this.tree = new Float64Array(capacity + 1);
    // Linear build; runs over the whole capacity so partial sums also reach the nodes past the last item.
    for (let k = 1; k <= capacity; k++) {
      this.tree[k] = (this.tree[k] ?? 0) + (this.heights[k - 1] ?? 0);
      const parent = k + (k & -k);
      if (parent <= capacity) this.tree[parent] = (this.tree[parent] ?? 0) + (this.tree[k] ?? 0);
    }
  }
}

export interface VirtualWindow {
  /** First rendered item (inclusive). */
  start: number;
  /** One past the last rendered item. */
  end: number;
  /** Space standing in for the items above `start` and below `end`. */
  padTop: number;
  padBottom: number;
}

/** Which items to render for a viewport, with `overscan` pixels of extra items above and below. */
export function computeWindow(index: HeightIndex, scrollTop: number, viewportHeight: number, overscan: number): VirtualWindow {
  const n = index.count;
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const top = Math.max(0, scrollTop - overscan);
  const bottom = Math.max(top, scrollTop + Math.max(0, viewportHeight) + overscan);
  const start = index.indexAt(top);
  const end = Math.min(n, index.indexAt(bottom) + 1);
  const padTop = index.offsetOf(start);
  return { start, end, padTop, padBottom: Math.max(0, index.total() - index.offsetOf(end)) };
}

/** Near enough to the bottom that new content should keep the view pinned there. */
export function isAtBottom(scrollTop: number, viewportHeight: number, scrollHeight: number, threshold = 32): boolean {
  return scrollHeight - (scrollTop + viewportHeight) <= threshold;
}

export interface ScrollAnchor {
  index: number;
  /** Distance from the top of that item to the top of the viewport. */
  within: number;
}

/** Remember which item is at the top of the viewport, so height changes above it do not move what the user reads. */
export function captureAnchor(index: HeightIndex, scrollTop: number): ScrollAnchor | undefined {
  const i = index.indexAt(scrollTop);
  if (i < 0) return undefined;
  return { index: i, within: scrollTop - index.offsetOf(i) };
}

/** The scrollTop that puts the anchored item back where it was. */
export function restoreAnchor(index: HeightIndex, anchor: ScrollAnchor): number {
  const i = Math.min(anchor.index, index.count - 1);
  if (i < 0) return 0;
  return index.offsetOf(i) + Math.min(anchor.within, index.height(i));
}
