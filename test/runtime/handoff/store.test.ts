import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashToken, HandoffStore, newToken, sameHash, type HandoffRecord } from '../../../src/runtime/handoff/store';
import { makeTempDir } from '../../helpers/temp-dir';

function record(token: string, over: Partial<HandoffRecord> = {}): HandoffRecord {
  const now = Date.now();
  return {
    version: 1,
    tokenHash: hashToken(token),
    sessionId: 'session_abc123',
    cwd: '/w',
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    url: 'http://127.0.0.1:1/',
    pid: 1,
    ...over,
  };
}

describe('handoff store', () => {
  it('tokens are 32 random bytes in base64url, hashed with sha256, compared only as well-formed hashes', () => {
    const a = newToken();
    assert.match(a, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, newToken());
    assert.equal(hashToken(a).length, 64);
    assert.ok(sameHash(hashToken(a), hashToken(a)));
    assert.ok(!sameHash(hashToken(a), hashToken(newToken())));
    assert.ok(!sameHash('abc', 'abc'), 'not a hash');
  });

  it('writes only the hash, in a 0700 folder and 0600 files; finds by token; newest first', () => {
    const home = makeTempDir('handoff-home-');
    const store = new HandoffStore(home);
    const older = newToken();
    const newer = newToken();
    store.save(record(older, { createdAt: new Date(Date.now() - 1000).toISOString() }));
    store.save(record(newer));
    assert.equal(statSync(store.dir).mode & 0o777, 0o700);
    for (const name of readdirSync(store.dir)) {
      assert.equal(statSync(path.join(store.dir, name)).mode & 0o777, 0o600);
      const text = readFileSync(path.join(store.dir, name), 'utf8');
      assert.ok(!text.includes(older) && !text.includes(newer), 'no token on disk');
    }
    assert.equal(store.findByToken(older)?.tokenHash, hashToken(older));
    assert.equal(store.findByToken(newToken()), undefined);
    assert.deepEqual(store.all().map((r) => r.tokenHash), [hashToken(newer), hashToken(older)]);
  });

  it('a token is used once (the second claim loses), and expires with time', () => {
    let now = Date.now();
    const store = new HandoffStore(makeTempDir('handoff-home-'), () => now);
    const r = record(newToken());
    store.save(r);
    assert.equal(store.state(r), 'usable');
    now += 61_000;
    assert.equal(store.state(r), 'expired');
    now -= 61_000;
    assert.equal(store.claim(r, 'a'), true);
    assert.equal(store.claim(r, 'b'), false);
    assert.equal(store.state(r), 'used');
  });

  it('a record whose name is not its hash, or that is malformed, is ignored', () => {
    const store = new HandoffStore(makeTempDir('handoff-home-'));
    store.save(record(newToken()));
    const [name] = readdirSync(store.dir);
    const text = readFileSync(path.join(store.dir, name!), 'utf8');
    assert.equal(store.all().length, 1);
    // A record whose content names another hash than its file is not read (a copied file cannot stand for another token).
    const other = hashToken(newToken());
    writeFileSync(path.join(store.dir, `${other}.json`), text);
    writeFileSync(path.join(store.dir, `${hashToken('x')}.json`), '{not json');
    assert.equal(store.all().length, 1);
  });
});
