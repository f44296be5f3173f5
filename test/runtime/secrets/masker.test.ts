import assert from 'node:assert/strict';
import { MIN_MASKED_LENGTH, SecretMasker } from '../../../src/runtime/secrets/masker';

const KEY = 'sk-live-0123456789abcdef';

describe('secret masking in tool output', () => {
  it('masks configured keys and secret-named variables, also URL-encoded, and leaves short values alone', () => {
    const masker = SecretMasker.from(
      { vendorapi: { apiKey: KEY }, cloudhub: { clientSecret: 'client/secret+value==' }, localrunner: { keepAlive: '5m' }, permissions: { allow: ['Bash(npm run build)'] } },
      { GITHUB_TOKEN: 'ghp_tokenvalue123', SHORT_KEY: 'abc1234', PATH: '/usr/local/bin:/usr/bin' },
    );
    const text = `key=${KEY} secret=client%2Fsecret%2Bvalue%3D%3D raw=client/secret+value== gh=ghp_tokenvalue123 short=abc1234 path=/usr/bin`;
    assert.equal(
      masker.mask(text),
      'key=[redacted] secret=[redacted] raw=[redacted] gh=[redacted] short=abc1234 path=/usr/bin',
    );
    assert.equal('abc1234'.length, MIN_MASKED_LENGTH - 1);
    assert.equal(masker.mask('Bash(npm run build) 5m'), 'Bash(npm run build) 5m');
  });

  it('masks a secret split across streamed chunks at every split point, and loses no other text', () => {
    const masker = new SecretMasker([KEY]);
    const full = `before ${KEY} middle ${KEY}after sk-live-01 end`;
    for (let cut = 0; cut <= full.length; cut++) {
      for (const second of [cut, Math.min(full.length, cut + 5)]) {
        const stream = masker.stream();
        const out = stream.push(full.slice(0, cut)) + stream.push(full.slice(cut, second)) + stream.push(full.slice(second)) + stream.flush();
        assert.equal(out, 'before [redacted] middle [redacted]after sk-live-01 end', `split at ${cut}/${second}`);
      }
    }
  });

  it('passes text through at once when it cannot be the start of a secret', () => {
    const stream = new SecretMasker([KEY]).stream();
    assert.equal(stream.push('hello\n'), 'hello\n');
    assert.equal(stream.push('x sk-li'), 'x ');
    assert.equal(stream.push('ne\n'), 'sk-line\n');
    assert.equal(stream.flush(), '');
  });

  it('masks nothing when no secret is known', () => {
    const masker = new SecretMasker([undefined, '', 'short']);
    assert.equal(masker.size, 0);
    assert.equal(masker.mask('short text'), 'short text');
  });
});
