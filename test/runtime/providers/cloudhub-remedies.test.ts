import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, config, providerErrorOf } from './helpers';

describe('cloudhub remedies from real error answers', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const hub = () =>
    createProvider(
      config({ provider: 'cloudhub', cloudhub: { baseUrl: stub.origin, deploymentName: 'chat-dep', apiKey: 'hub-key-1234' } }),
      {},
      { maxRetries: 0 },
    );

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

  it('401 → check the key or identity; 404 → deployment name must match; 429 → raise the TPM quota', async () => {
    stub.enqueue(
      { status: 401, errorBody: { error: { code: '401', message: 'Access denied due to invalid subscription key.' } } },
      { status: 404, errorBody: { error: { code: 'DeploymentNotFound', message: 'The API deployment for this resource does not exist.' } } },
      { status: 429, headers: { 'retry-after': '1' }, errorBody: { error: { code: '429', message: 'Requests exceeded token rate limit.' } } },
    );
    const auth = await providerErrorOf(hub().streamChat(chat()));
    assert.match(auth.remedy, /check the API key or identity credentials/);
    const missing = await providerErrorOf(hub().streamChat(chat()));
    assert.match(missing.remedy, /deployment name must match exactly/);
    const limited = await providerErrorOf(hub().streamChat(chat()));
    assert.match(limited.remedy, /raise the tokens-per-minute quota/);
    assert.equal(limited.retryAfterMs, 1000);
  });
});
