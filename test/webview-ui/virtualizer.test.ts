import assert from 'node:assert/strict';
import { HeightIndex, captureAnchor, computeWindow, isAtBottom, restoreAnchor } from '../../webview-ui/src/model/virtualizer';

/** Deterministic varied heights: 20..219 px. */
const heightOf = (i: number) => 20 + ((i * 7919) % 200);

function build(n: number): { index: HeightIndex; heights: number[] } {
  const index = new HeightIndex(60);
  const heights: number[] = [];
  for (let i = 0; i < n; i++) {
    index.setCount(i + 1); // appended one by one, as a streaming session does
    index.setHeight(i, heightOf(i));
    heights.push(heightOf(i));
  }
  return { index, heights };
}

const prefix = (hs: number[], i: number) => hs.slice(0, i).reduce((a, b) => a + b, 0);

describe('transcript virtualizer', () => {
  it('keeps exact offsets for a 2,000-item session built by appends', () => {
    const { index, heights } = build(2000);
    assert.equal(index.count, 2000);
    assert.equal(index.total(), prefix(heights, 2000));
    for (const i of [0, 1, 15, 16, 17, 999, 1024, 1999, 2000]) assert.equal(index.offsetOf(i), prefix(heights, i), `offset of ${i}`);
  });

  it('finds the item covering any position', () => {
    const { index, heights } = build(2000);
    for (const i of [0, 1, 500, 1023, 1024, 1998, 1999]) {
      const top = prefix(heights, i);
      assert.equal(index.indexAt(top), i, `top edge of ${i}`);
      assert.equal(index.indexAt(top + heights[i]! - 1), i, `bottom edge of ${i}`);
    }
    assert.equal(index.indexAt(-50), 0);
    assert.equal(index.indexAt(index.total() + 1000), 1999);
    assert.equal(new HeightIndex(10).indexAt(5), -1);
  });

  it('renders only the items near the viewport, anywhere in a long session', () => {
    const { index, heights } = build(2000);
    for (const scrollTop of [0, 12345, prefix(heights, 1000), index.total() - 600]) {
      const w = computeWindow(index, scrollTop, 600, 300);
      assert.ok(w.end - w.start < 60, `window at ${scrollTop} has ${w.end - w.start} items`);
      assert.equal(w.padTop, prefix(heights, w.start));
      assert.equal(w.padTop + prefix(heights.slice(w.start), w.end - w.start) + w.padBottom, index.total());
      // The rendered items cover the viewport plus overscan.
      assert.ok(w.padTop <= Math.max(0, scrollTop - 300));
      assert.ok(index.total() - w.padBottom >= Math.min(index.total(), scrollTop + 900));
    }
  });

  it('handles an empty list and a viewport larger than the content', () => {
    assert.deepEqual(computeWindow(new HeightIndex(40), 0, 500, 100), { start: 0, end: 0, padTop: 0, padBottom: 0 });
    const { index } = build(3);
    assert.deepEqual(computeWindow(index, 0, 5000, 100), { start: 0, end: 3, padTop: 0, padBottom: 0 });
  });

  it('uses the estimate until an item is measured, and reports the change', () => {
    const index = new HeightIndex(50);
    index.setCount(4);
    assert.equal(index.total(), 200);
    assert.equal(index.isMeasured(2), false);
    assert.equal(index.setHeight(2, 80), 30);
    assert.equal(index.isMeasured(2), true);
    assert.equal(index.setHeight(2, 80), 0);
    assert.equal(index.offsetOf(3), 180);
    assert.equal(index.setHeight(9, 10), 0, 'out of range is ignored');
  });

  it('shrinks and regrows (new chat) with correct sums', () => {
    const { index } = build(100);
    index.setCount(2);
    assert.equal(index.total(), heightOf(0) + heightOf(1));
    index.setCount(5);
    assert.equal(index.total(), heightOf(0) + heightOf(1) + 3 * 60);
  });

  it('keeps the item the user reads in place when items above it change height', () => {
    const { index } = build(2000);
    const scrollTop = index.offsetOf(800) + 17;
    const anchor = captureAnchor(index, scrollTop);
    assert.deepEqual(anchor, { index: 800, within: 17 });
    index.setHeight(10, index.height(10) + 500);
    index.setHeight(900, 5); // below: must not matter
    assert.equal(restoreAnchor(index, anchor!), scrollTop + 500);
  });

  it('knows when the view is pinned to the bottom', () => {
    assert.equal(isAtBottom(400, 600, 1000), true);
    assert.equal(isAtBottom(380, 600, 1000), true);
    assert.equal(isAtBottom(100, 600, 1000), false);
  });

  it('rejects a non-positive estimate', () => {
    assert.throws(() => new HeightIndex(0), /estimated item height must be positive/);
  });
});
