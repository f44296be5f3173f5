import assert from 'node:assert/strict';
import { RestartSchedule, backoffDelay } from '../../src/extension/host/backoff';

const policy = { baseMs: 1000, maxMs: 5000, maxAttempts: 4, stableAfterMs: 60000 };

describe('extension runtime restart backoff', () => {
  it('doubles the delay and caps it', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy)), [1000, 2000, 4000, 5000, 5000]);
    assert.throws(() => backoffDelay(0, policy), /positive integer/);
  });

  it('stops after the allowed attempts until reset', () => {
    const s = new RestartSchedule(policy);
    const attempts = [s.next(10), s.next(10), s.next(10), s.next(10), s.next(10)];
    assert.deepEqual(attempts.map((a) => a?.attempt), [1, 2, 3, 4, undefined]);
    s.reset();
    assert.deepEqual(s.next(10), { attempt: 1, delayMs: 1000 });
  });

  it('starts a fresh series after a runtime that stayed up long enough', () => {
    const s = new RestartSchedule(policy);
    s.next(10);
    s.next(10);
    assert.deepEqual(s.next(120000), { attempt: 1, delayMs: 1000 });
  });
});
