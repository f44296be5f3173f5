import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { chat, config, providerErrorOf } from './helpers';

const KEY = 'hub-key-1234';

describe('cloudhub remedies from the deployment’s real answers', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startCloudHubStub({ deployments: ['chat-dep'], apiKey: KEY });
  });
  afterEach(async () => {
    await stub.close();
  });

  const hub = (settings: Record<string, unknown> = {}) =>
    createProvider(
      config({ provider: 'cloudhub', cloudhub: { baseUrl: stub.origin, deploymentName: 'chat-dep', apiKey: KEY, ...settings } }),
      {},
      { maxRetries: 0 },
    );

  it('a wrong api-key → 401 from the resource → check the API key or identity credentials', async () => {
    const err = await providerErrorOf(hub({ apiKey: 'not-the-key-5150' }).streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.equal(err.status, 401);
    assert.match(err.remedy, /check the API key or identity credentials/);
    assert.equal(stub.requests[0]?.headers['api-key'], 'not-the-key-5150');
  });

  it('a deployment name that differs only in case → 404 DeploymentNotFound → the name must match exactly', async () => {
    const err = await providerErrorOf(hub({ deploymentName: 'Chat-Dep' }).streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.equal(err.status, 404);
    assert.match(err.message, /deployment for this resource does not exist/);
    assert.match(err.remedy, /^the deployment name must match exactly \(cloudhub\.deploymentName/);
  });

  it('a baseUrl that is not the deployment path → 404 Resource not found → also check the endpoint and apiVersion', async () => {
    const err = await providerErrorOf(hub({ baseUrl: `${stub.origin}/v1/openai/deployments/chat-dep` }).streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.match(err.message, /Resource not found/);
    assert.match(err.remedy, /check the endpoint \(cloudhub\.baseUrl \/ CLOUDHUB_ENDPOINT\) and cloudhub\.apiVersion/);
  });

  it('the stub answers only the real path with an api-version (a request without it is 404 Resource not found)', async () => {
    const res = await fetch(`${stub.origin}/openai/deployments/chat-dep/chat/completions`, {
      method: 'POST',
      headers: { 'api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [] }),
    });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: { code: '404', message: 'Resource not found' } });
  });

  // Quota and region refusals depend on the resource's state, so the answers are scripted (real bodies).
  it('429 → raise the tokens-per-minute quota (retry-after kept)', async () => {
    stub.enqueue({ status: 429, headers: { 'retry-after': '1' }, errorBody: { error: { code: '429', message: 'Requests exceeded token rate limit.' } } });
    const limited = await providerErrorOf(hub().streamChat(chat()));
    assert.equal(limited.code, 'rate_limited');
    assert.match(limited.remedy, /raise the tokens-per-minute quota/);
    assert.equal(limited.retryAfterMs, 1000);
  });

  it('a region where the model is not offered → deploy in a supported region', async () => {
    stub.enqueue({
      status: 400,
      errorBody: { error: { code: 'ModelNotAvailableInRegion', message: 'The model is not available in this region.' } },
    });
    const err = await providerErrorOf(hub().streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.match(err.message, /not available in this region/);
    assert.match(err.remedy, /deploy the model in a region where it is offered/);
  });
});
