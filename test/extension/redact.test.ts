import assert from 'node:assert/strict';
import { REDACTED, redact, scrubString } from '../../src/extension/redact';

describe('extension redact', () => {
  it('replaces secret-named keys at any depth and leaves other values', () => {
    const msg = { method: 'configure', params: { config: { provider: 'vendorapi', vendorapi: { apiKey: 'sk-live-123456', model: 'm' }, cloudhub: { clientSecret: 'cs-999999' } } } };
    const out = redact(msg) as typeof msg;
    assert.equal(out.params.config.vendorapi.apiKey, REDACTED);
    assert.equal(out.params.config.cloudhub.clientSecret, REDACTED);
    assert.equal(out.params.config.vendorapi.model, 'm');
    assert.equal(out.params.config.provider, 'vendorapi');
    assert.equal(msg.params.config.vendorapi.apiKey, 'sk-live-123456', 'the input is not modified');
  });

  it('scrubs known secret values inside free text, and Bearer tokens', () => {
    const out = redact({ error: 'request with key sk-live-123456 failed', list: ['x sk-live-123456 y'] }, ['sk-live-123456']);
    assert.deepEqual(out, { error: `request with key ${REDACTED} failed`, list: [`x ${REDACTED} y`] });
    assert.equal(scrubString('Authorization: Bearer abcdefghijkl.mn'), `Authorization: Bearer ${REDACTED}`);
  });

  it('ignores very short known secrets (they would mangle ordinary text) and handles cycles', () => {
    assert.equal(scrubString('a b c', ['a']), 'a b c');
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    assert.deepEqual(redact(cyclic), { a: 1, self: '[circular]' });
  });

  it('keeps empty secret fields visible as empty (nothing to hide)', () => {
    assert.deepEqual(redact({ apiKey: '' }), { apiKey: '' });
  });
});
