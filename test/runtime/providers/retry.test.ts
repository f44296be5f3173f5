import { strict as assert } from 'node:assert';
import { abortableSleep, backoffDelayMs, parseRetryAfterMs, withRetries } from '../../../src/runtime/providers/retry';
import { ProviderError } from '../../../src/runtime/providers/types';

describe('provider retries', () => {
  it('parses retry-after as seconds, as an HTTP date, and prefers retry-after-ms', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '7' }), now), 7000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:30 GMT' }), now), 30_000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2029 00:00:00 GMT' }), now), 0);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': '7', 'retry-after-ms': '250' }), now), 250);
    assert.equal(parseRetryAfterMs({ 'retry-after': ['2'] }, now), 2000);
    assert.equal(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(parseRetryAfterMs(new Headers(), now), undefined);
    assert.equal(parseRetryAfterMs(undefined, now), undefined);
  });

  it('backs off exponentially with jitter and a cap', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(backoffDelayMs(0, policy, () => 1), 100);
    assert.equal(backoffDelayMs(2, policy, () => 1), 400);
    assert.equal(backoffDelayMs(2, policy, () => 0), 200);
    assert.equal(backoffDelayMs(10, policy, () => 1), 1000);
  });

  it('retries only what the predicate allows and stops at once on other errors', async () => {
    let attempts = 0;
    const fatal = new ProviderError('context_too_long', 'too long', 'reduce');
    await assert.rejects(
      withRetries(async () => {
        attempts++;
        throw fatal;
      }, (e) => e.code === 'rate_limited'),
      (e) => e === fatal,
    );
    assert.equal(attempts, 1);
  });

  it('stops waiting between attempts when aborted', async () => {
    const controller = new AbortController();
    const pending = withRetries(
      async () => {
        throw new ProviderError('rate_limited', 'slow down', 'wait', 429, 30_000);
      },
      () => true,
      { signal: controller.signal },
    );
    controller.abort();
    await assert.rejects(pending, (e: Error) => e.name === 'AbortError');
    await assert.rejects(abortableSleep(10, controller.signal), (e: Error) => e.name === 'AbortError');
  });
});
