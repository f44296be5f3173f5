import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { VENDORAPI_DEFAULT_MODEL } from '../../../src/runtime/config/schema';
import { cloudHubDeploymentUrl } from '../../../src/runtime/providers/builders/cloudhub';
import { ProviderError } from '../../../src/runtime/providers/types';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, config, providerErrorOf, textOf } from './helpers';

const failure = providerErrorOf;

function configError(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProviderError, String(err));
    assert.equal(err.code, 'config_error');
    return err;
  }
  throw new Error('expected a config_error');
}

describe('createProvider: selection and request shape per provider', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  it('ggufserver: {baseUrl}/v1, no key, sampling settings and context window from the config', async () => {
    const cfg = config({ provider: 'ggufserver', ggufserver: { baseUrl: `${stub.origin}/`, topK: 20, seed: 42, contextSize: 8192 } });
    const p = createProvider(cfg);
    assert.equal(p.id, 'ggufserver');
    assert.equal(p.contextWindow, 8192);
    stub.enqueue({ text: 'local answer' });
    assert.equal(textOf(await collect(p.streamChat(chat()))), 'local answer');
    const req = stub.requests[0];
    assert.equal(req?.path, '/v1/chat/completions');
    assert.equal(req?.headers['authorization'], undefined);
    assert.deepEqual(
      { top_k: req?.body.top_k, repeat_penalty: req?.body.repeat_penalty, seed: req?.body.seed },
      { top_k: 20, repeat_penalty: 1.1, seed: 42 },
    );
    assert.equal(req?.body.temperature, 0.7);
    assert.equal(req?.body.top_p, 0.9);
    assert.equal(req?.body.max_tokens, 4096);
  });

  it('ggufserver: an explicit maxTokens wins', async () => {
    const p = createProvider(config({ ggufserver: { baseUrl: stub.origin, maxTokens: 300 } }), { provider: 'ggufserver' });
    stub.enqueue({ text: 'x' });
    await collect(p.streamChat(chat()));
    assert.equal(stub.requests[0]?.body.max_tokens, 300);
  });

  it('vendorapi: Bearer key, organization, max_tokens, temperature and top_p', async () => {
    const cfg = config({
      provider: 'vendorapi',
      vendorapi: { apiKey: 'vk-test-1234', model: 'm-large', baseUrl: stub.url, organization: 'org-7', topP: 0.8 },
    });
    const p = createProvider(cfg);
    assert.equal(p.model, 'm-large');
    stub.enqueue({ text: 'ok' });
    await collect(p.streamChat(chat()));
    const req = stub.requests[0];
    assert.equal(req?.headers['authorization'], 'Bearer vk-test-1234');
    assert.equal(req?.headers['openai-organization'], 'org-7');
    assert.deepEqual([req?.body.max_tokens, req?.body.temperature, req?.body.top_p], [4096, 0.7, 0.8]);
  });

  it('vendorapi: a wrong key is refused by a server that checks it (401 → verify the key), without the key in the message', async () => {
    const checked = await startOpenAIStub({ apiKey: 'vk-right-key' });
    try {
      const cfg = config({ provider: 'vendorapi', vendorapi: { apiKey: 'vk-wrong-key-77', model: 'm', baseUrl: checked.url } });
      const err = await failure(createProvider(cfg).streamChat(chat()));
      assert.equal(err.code, 'auth_failed');
      assert.match(err.remedy, /verify the API key \(vendorapi\.apiKey \/ VENDORAPI_API_KEY\)/);
      assert.ok(!err.message.includes('vk-wrong-key-77'));
      assert.equal(checked.requests[0]?.path, '/v1/chat/completions');
    } finally {
      await checked.close();
    }
  });

  it('vendorapi: a missing key is a config_error naming the setting', () => {
    const noKey = configError(() => createProvider(config({ provider: 'vendorapi', vendorapi: { model: 'm' } })));
    assert.match(noKey.message, /vendorapi\.apiKey is not set/);
    assert.match(noKey.remedy, /VENDORAPI_API_KEY/);
  });

  // Spec 000 §2.4.3: "| model | string | the vendor's flagship multimodal model id | model id available to the account |".
  it('vendorapi: without a model the flagship multimodal default is requested; vendorapi.model and a selection override it', async () => {
    const base = { apiKey: 'vk-default', baseUrl: stub.url };
    const byDefault = createProvider(config({ provider: 'vendorapi', vendorapi: base }));
    assert.equal(byDefault.model, VENDORAPI_DEFAULT_MODEL);
    assert.equal(VENDORAPI_DEFAULT_MODEL, 'gpt-4.1');
    stub.enqueue({ text: 'ok' }, { text: 'ok' }, { text: 'ok' });
    await collect(byDefault.streamChat(chat()));
    assert.equal(stub.requests.at(-1)?.body.model, 'gpt-4.1');
    const configured = createProvider(config({ provider: 'vendorapi', vendorapi: { ...base, model: 'my-tuned-model' } }));
    await collect(configured.streamChat(chat()));
    assert.equal(stub.requests.at(-1)?.body.model, 'my-tuned-model');
    const selected = createProvider(config({ provider: 'vendorapi', vendorapi: base }), { model: 'vendorapi/other-model' });
    await collect(selected.streamChat(chat()));
    assert.equal(stub.requests.at(-1)?.body.model, 'other-model');
  });

  it('serviceai: {baseUrl}/v1 with a Bearer key, default model fantail (256K context)', async () => {
    const p = createProvider(config({ serviceai: { baseUrl: stub.origin, apiKey: 'svc-key-1' } }));
    assert.equal(p.id, 'serviceai');
    assert.equal(p.model, 'fantail');
    assert.equal(p.contextWindow, 256_000);
    stub.enqueue({ text: 'hosted' });
    await collect(p.streamChat(chat()));
    assert.equal(stub.requests[0]?.path, '/v1/chat/completions');
    assert.equal(stub.requests[0]?.headers['authorization'], 'Bearer svc-key-1');
    assert.equal(stub.requests[0]?.body.model, 'fantail');
    assert.equal(stub.requests[0]?.body.reasoning_effort, undefined);
  });

  it('serviceai: moa sends the reasoning setting and has a 1M context', async () => {
    const cfg = config({ serviceai: { baseUrl: stub.origin, apiKey: 'k-1234', reasoning: 'xhigh' } });
    const p = createProvider(cfg, { model: 'serviceai/moa' });
    assert.equal(p.contextWindow, 1_000_000);
    stub.enqueue({ text: 'deep' });
    await collect(p.streamChat(chat()));
    assert.equal(stub.requests[0]?.body.model, 'moa');
    assert.equal(stub.requests[0]?.body.reasoning_effort, 'xhigh');
  });

  it('serviceai: weka is refused for chat, pointing at agentcli decide; missing URL/key name their variables', () => {
    const weka = configError(() => createProvider(config({ serviceai: { baseUrl: stub.origin, apiKey: 'k' } }), { model: 'weka' }));
    assert.match(weka.message, /decisions only/);
    assert.match(`${weka.message} ${weka.remedy}`, /agentcli decide/);
    const noUrl = configError(() => createProvider(config({ serviceai: { apiKey: 'k' } })));
    assert.match(`${noUrl.message} ${noUrl.remedy}`, /serviceai\.baseUrl.*SERVICE_BASE_URL/);
    const noKey = configError(() => createProvider(config({ serviceai: { baseUrl: stub.origin } })));
    assert.match(`${noKey.message} ${noKey.remedy}`, /serviceai\.apiKey.*SERVICE_API_KEY/);
  });

  it('serviceai: the catalog marks weka unavailable with the reason and adds known limits', async () => {
    stub.setModels(['fantail', 'moa', 'weka']);
    const models = await createProvider(config({ serviceai: { baseUrl: stub.origin, apiKey: 'k-1234' } })).listModels();
    assert.deepEqual(
      models.map((m) => [m.id, m.available, m.contextWindow]),
      [['fantail', true, 256_000], ['moa', true, 1_000_000], ['weka', false, 32_000]],
    );
    assert.match(models[2]?.reason ?? '', /agentcli decide/);
    assert.equal(stub.requests[0]?.headers['authorization'], 'Bearer k-1234');
  });

  it('cloudhub (api-key): deployment path, api-version query, api-key header and no Authorization', async () => {
    const hub = await startCloudHubStub({ deployments: ['dep-1', 'full'], apiKey: 'hub-key-99' });
    try {
      const cfg = config({
        provider: 'cloudhub',
        cloudhub: { baseUrl: hub.origin, deploymentName: 'dep-1', apiKey: 'hub-key-99' },
      });
      const p = createProvider(cfg);
      assert.equal(p.model, 'dep-1');
      hub.enqueue({ text: 'from the hub' });
      assert.equal(textOf(await collect(p.streamChat(chat()))), 'from the hub');
      const req = hub.requests[0];
      assert.equal(req?.path, '/openai/deployments/dep-1/chat/completions');
      assert.deepEqual(req?.query, { 'api-version': '2024-10-21' });
      assert.equal(req?.headers['api-key'], 'hub-key-99');
      assert.equal(req?.headers['authorization'], undefined);
    } finally {
      await hub.close();
    }
  });

  it('cloudhub: a baseUrl that already names the deployment is used as is; health probes with one token', async () => {
    const hub = await startCloudHubStub({ deployments: ['dep-1', 'full'], apiKey: 'hub-key-99' });
    try {
      const cfg = config({
        cloudhub: { baseUrl: `${hub.origin}/openai/deployments/full`, apiKey: 'hub-key-99', apiVersion: '2025-01-01' },
      });
      const p = createProvider(cfg, { provider: 'cloudhub' });
      hub.enqueue({ text: 'OK' });
      const health = await p.checkHealth();
      assert.equal(health.ok, true, health.message);
      assert.equal(hub.requests[0]?.path, '/openai/deployments/full/chat/completions');
      assert.equal(hub.requests[0]?.query['api-version'], '2025-01-01');
      assert.equal(hub.requests[0]?.body.max_tokens, 1);
      assert.deepEqual(await p.listModels(), [{ id: 'full', available: true }]);
    } finally {
      await hub.close();
    }
  });

  it('cloudhub: builds the endpoint from resourceName and names each missing setting', () => {
    const url = cloudHubDeploymentUrl(config({ cloudhub: { resourceName: 'res1', deploymentName: 'd 1' } }).cloudhub);
    assert.match(url, /^https:\/\/res1\.[a-z.]+\/openai\/deployments\/d%201$/);
    const noResource = configError(() => createProvider(config({ provider: 'cloudhub', cloudhub: { deploymentName: 'd', apiKey: 'k' } })));
    assert.match(noResource.message, /cloudhub\.resourceName is not set/);
    const noDeployment = configError(() => createProvider(config({ provider: 'cloudhub', cloudhub: { resourceName: 'r', apiKey: 'k' } })));
    assert.match(`${noDeployment.message} ${noDeployment.remedy}`, /cloudhub\.deploymentName.*CLOUDHUB_DEPLOYMENT/);
    const noKey = configError(() => createProvider(config({ provider: 'cloudhub', cloudhub: { resourceName: 'r', deploymentName: 'd' } })));
    assert.match(`${noKey.message} ${noKey.remedy}`, /cloudhub\.apiKey.*CLOUDHUB_KEY/);
  });

  it('cloudhub entra-id without tenant, client or secret is a config_error naming the setting and its variable', () => {
    const base = { provider: 'cloudhub' as const, cloudhub: { baseUrl: stub.url, deploymentName: 'd1', authMethod: 'entra-id' as const } };
    const noTenant = configError(() => createProvider(config(base)));
    assert.match(`${noTenant.message} ${noTenant.remedy}`, /cloudhub\.tenantId is not set.*CLOUDHUB_TENANT_ID/);
    const noClient = configError(() => createProvider(config({ ...base, cloudhub: { ...base.cloudhub, tenantId: 't' } })));
    assert.match(`${noClient.message} ${noClient.remedy}`, /cloudhub\.clientId is not set.*CLOUDHUB_CLIENT_ID/);
    const noSecret = configError(() =>
      createProvider(config({ ...base, cloudhub: { ...base.cloudhub, tenantId: 't', clientId: 'c' } })),
    );
    assert.match(`${noSecret.message} ${noSecret.remedy}`, /cloudhub\.clientSecret is not set.*CLOUDHUB_CLIENT_SECRET/);
  });

  it('model precedence: selection, then global model, then the provider setting', () => {
    const cfg = config({ provider: 'ggufserver', model: 'global-m', ggufserver: { model: 'own-m' } });
    assert.equal(createProvider(cfg, { model: 'picked' }).model, 'picked');
    assert.equal(createProvider(cfg).model, 'global-m');
    assert.equal(createProvider(config({ provider: 'ggufserver', ggufserver: { model: 'own-m' } })).model, 'own-m');
    assert.equal(createProvider(config({ provider: 'ggufserver', model: 'ggufserver/g2' })).model, 'g2');
  });

  it('a provider/model selector picks the provider; a conflicting --provider is a config_error', () => {
    const cfg = config({ provider: 'serviceai', ggufserver: { baseUrl: stub.origin } });
    const p = createProvider(cfg, { model: 'ggufserver/local-7b' });
    assert.deepEqual([p.id, p.model], ['ggufserver', 'local-7b']);
    const err = configError(() => createProvider(cfg, { provider: 'vendorapi', model: 'ggufserver/x' }));
    assert.match(err.message, /names provider "ggufserver" but provider "vendorapi" was selected/);
  });
});
