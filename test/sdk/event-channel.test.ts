import assert from 'node:assert/strict';
import { EventChannel } from '../../src/sdk/event-channel';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('sdk event channel', () => {
  it('replays buffered items to every iterator, then live ones, then ends', async () => {
    const ch = new EventChannel<number>();
    ch.push(1);
    const early = collect(ch.iterate());
    ch.push(2);
    setImmediate(() => {
      ch.push(3);
      ch.end();
      ch.push(4); // ignored after end
    });
    assert.deepEqual(await early, [1, 2, 3]);
    assert.deepEqual(await collect(ch.iterate()), [1, 2, 3]);
  });

  it('throws the end error after the buffered items', async () => {
    const ch = new EventChannel<string>();
    ch.push('a');
    ch.end(new Error('runtime died'));
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const x of ch.iterate()) seen.push(x);
    }, /runtime died/);
    assert.deepEqual(seen, ['a']);
  });

  it('an iterator closed early stops without ending the channel', async () => {
    const ch = new EventChannel<number>();
    ch.push(1);
    ch.push(2);
    for await (const x of ch.iterate()) if (x === 1) break;
    assert.equal(ch.ended, false);
  });
});
