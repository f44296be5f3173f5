import assert from 'node:assert/strict';
import { findTooDeep, formatPath, paramsDepthError } from '../../src/runtime/value-depth';

/** An object chain `{ a: { a: … } }` of `levels` objects, built without recursion. */
function chain(levels: number): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cur = root;
  for (let i = 1; i < levels; i++) {
    const next: Record<string, unknown> = {};
    cur.a = next;
    cur = next;
  }
  return root;
}

describe('value depth (params nesting limit)', () => {
  it('counts objects and arrays, not leaves; the value itself is level 1', () => {
    assert.equal(findTooDeep('text', 1), undefined);
    assert.equal(findTooDeep({ s: 'x', n: 1, z: null }, 1), undefined);
    assert.deepEqual(findTooDeep({ a: [] }, 1), ['a']);
    assert.equal(findTooDeep(chain(64), 64), undefined);
    assert.equal(findTooDeep(chain(65), 64)?.length, 64);
  });

  it('finds the first too-deep value in document order, through arrays and odd keys', () => {
    const value = { ok: { x: 1 }, list: [{ fine: true }, { 'a key': [[{}]] }] };
    assert.deepEqual(findTooDeep(value, 4), ['list', 1, 'a key', 0]);
    assert.equal(formatPath('params', ['list', 1, 'a key', 0]), 'params.list[1]["a key"][0]');
  });

  it('handles a million levels without recursion, and names a shortened path', () => {
    const message = paramsDepthError({ tools: [{ inputSchema: chain(1_000_000) }] }, 64);
    assert.ok(message);
    assert.match(message, /^params are nested more than 64 levels deep at params\.tools\[0\]\.inputSchema\.a\.a\.a\.a\.a … \(52 more levels\) … \.a\.a\.a\.a: /);
    assert.equal(paramsDepthError({ tools: [] }, 64), undefined);
  });

  it('shortens very long keys in the path', () => {
    const key = 'k'.repeat(100);
    assert.equal(formatPath('p', [key]), `p.${'k'.repeat(37)}…`);
  });
});
