import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { CLOUDHUB_TOKEN_SCOPE, managedIdentityEndpoint, TOKEN_REFRESH_MARGIN_MS } from '../../../src/runtime/providers/cloudhub/token-source';
import { startIdentityStub, type IdentityStub } from '../../stubs/identity-stub';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, config, FAST_RETRY, providerErrorOf, textOf } from './helpers';

const ENTRA = { tenantId: 'tenant-a', clientId: 'client-a', clientSecret: 'entra-secret-value-123' };

describe('cloudhub entra-id and managed-identity tokens', () => {
  let chatStub: OpenAIStub;
  let identity: IdentityStub | undefined;
  /** Identity stubs whose issued tokens the deployment accepts (none when `tokensRevoked`). */
  const issuers = new Set<IdentityStub>();
  let tokensRevoked = false;
  const savedEnv = { ...process.env };
  beforeEach(async () => {
    tokensRevoked = false;
    chatStub = await startCloudHubStub({
      deployments: ['dep-1'],
      acceptToken: (token) => !tokensRevoked && [...issuers].some((s) => s.issued.includes(token)),
    });
  });
  afterEach(async () => {
    await chatStub.close();
    await identity?.close();
    identity = undefined;
    for (const name of ['IDENTITY_ENDPOINT', 'IDENTITY_HEADER']) {
      if (savedEnv[name] === undefined) delete process.env[name];
      else process.env[name] = savedEnv[name];
    }
  });

  function cloudhub(settings: Record<string, unknown>, id: IdentityStub | undefined = identity) {
    assert.ok(id, 'an identity stub is running');
    issuers.add(id);
    return createProvider(
      config({ provider: 'cloudhub', cloudhub: { baseUrl: chatStub.origin, deploymentName: 'dep-1', ...settings } }),
      {},
      { ...FAST_RETRY, cloudHubAuth: { authorityHost: id.origin, tlsCa: id.ca } },
    );
  }

  it('entra-id: client credentials at the authority, the token sent as Bearer and cached (one token request for two chats)', async () => {
    identity = await startIdentityStub(ENTRA);
    const p = cloudhub({ authMethod: 'entra-id', ...ENTRA });
    chatStub.enqueue({ text: 'first' }, { text: 'second' });
    assert.equal(textOf(await collect(p.streamChat(chat()))), 'first');
    assert.equal(textOf(await collect(p.streamChat(chat()))), 'second');
    const tokenRequests = identity.requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token'));
    assert.equal(tokenRequests.length, 1, 'one token request for two chats');
    assert.deepEqual(
      [tokenRequests[0]?.form.grant_type, tokenRequests[0]?.form.client_id, tokenRequests[0]?.form.scope],
      ['client_credentials', 'client-a', CLOUDHUB_TOKEN_SCOPE],
    );
    const token = identity.issued[0];
    assert.ok(token);
    for (const req of chatStub.requests) {
      assert.equal(req.headers['authorization'], `Bearer ${token}`);
      assert.equal(req.headers['api-key'], undefined);
      assert.equal(req.path, '/openai/deployments/dep-1/chat/completions');
      assert.equal(req.query['api-version'], '2024-10-21');
    }
  });

  it('entra-id: the cached token is reused until TOKEN_REFRESH_MARGIN_MS before it expires, then fetched again', async () => {
    // 200 s tokens: inside the identity library's own renewal window (5 min), so it never answers from its cache and
    // every token request reaching the stub is one this runtime asked for.
    const lifetimeMs = 200_000;
    identity = await startIdentityStub({ ...ENTRA, expiresInSeconds: lifetimeMs / 1000 });
    issuers.add(identity);
    let skewMs = 0;
    const p = createProvider(
      config({ provider: 'cloudhub', cloudhub: { baseUrl: chatStub.origin, deploymentName: 'dep-1', authMethod: 'entra-id', ...ENTRA } }),
      {},
      { ...FAST_RETRY, cloudHubAuth: { authorityHost: identity.origin, tlsCa: identity.ca, now: () => Date.now() + skewMs } },
    );
    const tokenRequests = () => identity?.requests.filter((r) => r.path.endsWith('/oauth2/v2.0/token')).length;
    const send = async () => {
      chatStub.enqueue({ text: 'ok' });
      assert.equal(textOf(await collect(p.streamChat(chat()))), 'ok');
      return chatStub.requests.at(-1)?.headers['authorization'];
    };
    const first = await send();
    assert.equal(tokenRequests(), 1);
    skewMs = lifetimeMs - TOKEN_REFRESH_MARGIN_MS - 5_000; // 5 s before the renewal point: still reused
    assert.equal(await send(), first);
    assert.equal(tokenRequests(), 1, 'reused before the margin');
    skewMs = lifetimeMs - TOKEN_REFRESH_MARGIN_MS + 5_000; // inside the margin: renewed
    const renewed = await send();
    assert.equal(tokenRequests(), 2, 'fetched again inside the margin');
    assert.notEqual(renewed, first);
    assert.equal(renewed, `Bearer ${identity.issued[1] ?? 'missing'}`);
  });

  it('entra-id: a refused client is auth_failed naming the identity settings, without the secret', async () => {
    identity = await startIdentityStub({ ...ENTRA, clientSecret: 'the-right-secret' });
    const p = cloudhub({ authMethod: 'entra-id', ...ENTRA });
    const err = await providerErrorOf(p.streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.match(err.message, /entra-id token.*tenant-a.*client-a/);
    assert.match(err.remedy, /CLOUDHUB_CLIENT_SECRET/);
    assert.match(err.remedy, /role on the resource/);
    assert.ok(!`${err.message} ${err.remedy}`.includes(ENTRA.clientSecret));
    assert.equal(chatStub.requests.length, 0, 'no chat request without a token');
  });

  describe('managed-identity', () => {
    // The identity library keeps the managed-identity endpoint it found for the whole process,
    // so these tests share one identity stub.
    let shared: IdentityStub;
    before(async () => {
      shared = await startIdentityStub();
      process.env['IDENTITY_ENDPOINT'] = shared.managedIdentityEndpoint;
      process.env['IDENTITY_HEADER'] = shared.identityHeader;
    });
    after(async () => {
      await shared.close();
    });
    beforeEach(() => {
      shared.requests.length = 0;
      shared.setFailure(undefined);
      process.env['IDENTITY_ENDPOINT'] = shared.managedIdentityEndpoint;
      process.env['IDENTITY_HEADER'] = shared.identityHeader;
    });

    it('token from the identity endpoint (IDENTITY_ENDPOINT / IDENTITY_HEADER), sent as Bearer, cached', async () => {
      const p = cloudhub({ authMethod: 'managed-identity' }, shared);
      chatStub.enqueue({ text: 'one' }, { text: 'two' });
      await collect(p.streamChat(chat()));
      await collect(p.streamChat(chat()));
      const tokenRequests = shared.requests.filter((r) => r.path === '/msi/token');
      assert.equal(tokenRequests.length, 1);
      assert.equal(tokenRequests[0]?.query['resource'], CLOUDHUB_TOKEN_SCOPE.replace('/.default', ''));
      assert.equal(tokenRequests[0]?.headers['x-identity-header'], shared.identityHeader);
      assert.equal(chatStub.requests[1]?.headers['authorization'], `Bearer ${shared.issued.at(-1) ?? 'missing'}`);
    });

    it('a failing identity endpoint is auth_failed explaining where managed identity works', async () => {
      shared.setFailure({ status: 400, error: 'invalid_request', description: 'no identity assigned' });
      // A user-assigned identity (clientId): the identity library also caches managed-identity tokens process-wide.
      const err = await providerErrorOf(cloudhub({ authMethod: 'managed-identity', clientId: 'user-assigned-1' }, shared).streamChat(chat()));
      assert.equal(err.code, 'auth_failed');
      assert.equal(shared.requests[0]?.query['client_id'], 'user-assigned-1');
      assert.match(err.message, /managed-identity token.*no identity assigned/);
      assert.ok(err.message.includes(`from the identity endpoint ${shared.managedIdentityEndpoint} (from IDENTITY_ENDPOINT)`), err.message);
      assert.ok(!err.message.includes(shared.identityHeader), 'the identity header (a credential) is never shown');
      assert.match(err.remedy, /inside the cloud platform/);
      assert.equal(chatStub.requests.length, 0);
    });
  });

  it('the managed-identity endpoint named in errors follows the environment the identity library reads', () => {
    assert.match(managedIdentityEndpoint({}), /instance metadata service at http:\/\/169\.254\.169\.254\/metadata\/identity\/oauth2\/token/);
    assert.equal(managedIdentityEndpoint({ MSI_ENDPOINT: 'http://localhost:50342/oauth2/token' }), 'the identity endpoint http://localhost:50342/oauth2/token (from MSI_ENDPOINT)');
    assert.match(managedIdentityEndpoint({ AZURE_POD_IDENTITY_AUTHORITY_HOST: 'http://10.0.0.1/' }), /http:\/\/10\.0\.0\.1\/metadata\/identity\/oauth2\/token \(from AZURE_POD_IDENTITY_AUTHORITY_HOST\)/);
    assert.match(managedIdentityEndpoint({ AZURE_FEDERATED_TOKEN_FILE: '/var/run/token' }), /workload identity token exchange/);
  });

  it('a 401 from the deployment with a token is mapped to the identity remedy; the token never shows', async () => {
    identity = await startIdentityStub(ENTRA);
    tokensRevoked = true; // the identity issues a token, the deployment refuses it (no role on the resource)
    const err = await providerErrorOf(cloudhub({ authMethod: 'entra-id', ...ENTRA }).streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.match(err.remedy, /identity credentials/);
    assert.equal(err.status, 401);
    assert.ok(identity.issued[0] && !err.message.includes(identity.issued[0]));
  });

  it('api-key: a wrong key is refused by the deployment (401) with the key remedy; no key leaks', async () => {
    identity = await startIdentityStub(ENTRA);
    const err = await providerErrorOf(cloudhub({ apiKey: 'wrong-hub-key-4711' }).streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.match(err.message, /Access denied due to invalid subscription key/);
    assert.match(err.remedy, /check the API key or identity credentials/);
    assert.ok(!err.message.includes('wrong-hub-key-4711'));
  });
});
