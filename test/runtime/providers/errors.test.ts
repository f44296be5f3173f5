import { strict as assert } from 'node:assert';
import { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from '../../../src/runtime/providers/openai-compatible';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, closedPort, collect, FAST_RETRY, providerErrorOf, textOf } from './helpers';

const CANARY = 'sk-canary-7f3a9c2e1b5d4068';

describe('OpenAI-compatible provider: error mapping and retries', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const provider = (extra: Partial<OpenAICompatibleOptions> = {}) =>
    createOpenAICompatibleProvider({ id: 'vendorapi', model: 'model-x', baseURL: stub.url, apiKey: CANARY, ...FAST_RETRY, ...extra });

  it('retries a 429 after the retry-after delay, then succeeds', async () => {
    stub.enqueue({ status: 429, headers: { 'retry-after': '0' } }, { text: 'after the wait' });
    const chunks = await collect(provider().streamChat(chat()));
    assert.equal(textOf(chunks), 'after the wait');
    assert.equal(stub.requests.length, 2);
  });

  it('honours retry-after-ms', async () => {
    stub.enqueue({ status: 429, headers: { 'retry-after-ms': '5' } }, { text: 'ok' });
    assert.equal(textOf(await collect(provider().streamChat(chat()))), 'ok');
    assert.equal(stub.requests.length, 2);
  });

  it('does not wait out a retry-after longer than a minute: rate_limited with the delay and the remedy', async () => {
    stub.enqueue({ status: 429, headers: { 'retry-after': '3600' } });
    const err = await providerErrorOf(provider().streamChat(chat()));
    assert.equal(err.code, 'rate_limited');
    assert.equal(err.retryAfterMs, 3_600_000);
    assert.match(err.message, /the server asked to wait 3600 s/);
    assert.equal(err.remedy, 'wait a moment and retry, or upgrade the plan');
    assert.equal(stub.requests.length, 1);
  });

  it('gives up on 429 after the bounded retries, saying so; cloudhub names the tokens-per-minute quota', async () => {
    const replies = Array.from({ length: 3 }, () => ({ status: 429, headers: { 'retry-after': '0' } }));
    stub.enqueue(...replies);
    const err = await providerErrorOf(provider({ id: 'cloudhub', maxRetries: 2 }).streamChat(chat()));
    assert.equal(err.code, 'rate_limited');
    assert.match(err.message, /rate limited by cloudhub .*HTTP 429.*gave up after 3 attempts/);
    assert.match(err.remedy, /raise the tokens-per-minute quota/);
    assert.equal(stub.requests.length, 3);
  });

  it('retries 5xx a bounded number of times (default 3 retries), then fails with provider_error', async () => {
    stub.enqueue(...Array.from({ length: 6 }, () => ({ status: 503, errorBody: { error: { message: 'overloaded' } } })));
    const err = await providerErrorOf(provider().streamChat(chat()));
    assert.equal(err.code, 'provider_error');
    assert.equal(err.status, 503);
    assert.match(err.message, /vendorapi .*model "model-x".* failed with HTTP 503: overloaded \(gave up after 4 attempts\)/);
    assert.equal(stub.requests.length, 4);
  });

  it('recovers when a 5xx is followed by success', async () => {
    stub.enqueue({ status: 502 }, { text: 'fine now' });
    assert.equal(textOf(await collect(provider().streamChat(chat()))), 'fine now');
  });

  it('maps context_length_exceeded to context_too_long and never retries it', async () => {
    stub.enqueue({
      status: 400,
      errorBody: { error: { message: 'This request exceeds the limit.', code: 'context_length_exceeded', type: 'invalid_request_error' } },
    });
    const err = await providerErrorOf(provider().streamChat(chat()));
    assert.equal(err.code, 'context_too_long');
    assert.equal(err.remedy, 'reduce the input or use a model with a larger context');
    assert.equal(stub.requests.length, 1);
  });

  it('recognises a context overflow from the message alone (local server wording)', async () => {
    stub.enqueue({ status: 400, errorBody: { error: { message: 'the request exceeds the available context size, try increasing it' } } });
    const err = await providerErrorOf(provider({ id: 'ggufserver' }).streamChat(chat()));
    assert.equal(err.code, 'context_too_long');
    assert.equal(stub.requests.length, 1);
  });

  it('maps 401 to auth_failed with the provider-specific remedy, without retrying', async () => {
    stub.enqueue({ status: 401, errorBody: { error: { message: 'invalid key' } } });
    const err = await providerErrorOf(provider().streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.equal(err.status, 401);
    assert.match(err.remedy, /verify the API key \(vendorapi\.apiKey \/ VENDORAPI_API_KEY\)/);
    assert.equal(stub.requests.length, 1);

    stub.enqueue({ status: 403 });
    const hub = await providerErrorOf(provider({ id: 'cloudhub' }).streamChat(chat()));
    assert.equal(hub.code, 'auth_failed');
    assert.match(hub.remedy, /check the API key or identity credentials/);
  });

  it('maps 404 to model_not_available; cloudhub says the deployment name must match exactly', async () => {
    stub.enqueue({ status: 404, errorBody: { error: { message: 'The model `model-x` does not exist', code: 'model_not_found' } } });
    const err = await providerErrorOf(provider().streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.match(err.message, /model "model-x"/);
    assert.match(err.remedy, /check the model access of the account/);

    stub.enqueue({ status: 404, errorBody: { error: { code: 'DeploymentNotFound', message: 'no such deployment' } } });
    const hub = await providerErrorOf(provider({ id: 'cloudhub' }).streamChat(chat()));
    assert.equal(hub.code, 'model_not_available');
    assert.match(hub.remedy, /the deployment name must match exactly/);
  });

  it('maps a closed port to connection_refused: local providers say start the server, hosted ones check the endpoint', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const local = await providerErrorOf(provider({ id: 'ggufserver', baseURL: url }).streamChat(chat()));
    assert.equal(local.code, 'connection_refused');
    assert.match(local.message, /cannot reach ggufserver at http:\/\/127\.0\.0\.1:\d+\/v1: connection refused \(ECONNREFUSED\)/);
    assert.match(local.remedy, /^start the server at http:\/\/127\.0\.0\.1:\d+\/v1/);
    const hosted = await providerErrorOf(provider({ id: 'serviceai', baseURL: url }).streamChat(chat()));
    assert.match(hosted.remedy, /^check the endpoint http:\/\/127\.0\.0\.1:\d+\/v1/);
  });

  it('never shows the API key in an error, even when the server echoes it', async () => {
    const echo = { error: { message: `Incorrect API key provided: ${CANARY}. Key ${CANARY} is revoked.` } };
    stub.enqueue({ status: 401, errorBody: echo }, { status: 500, errorBody: echo }, { status: 400, errorBody: echo });
    for (const id of ['vendorapi', 'cloudhub'] as const) {
      const headers = id === 'cloudhub' ? { 'api-key': CANARY } : undefined;
      const err = await providerErrorOf(
        provider({ id, maxRetries: 0, ...(headers ? { headers, apiKey: undefined } : {}) }).streamChat(chat()),
      );
      const shown = `${err.message} ${err.remedy} ${String(err)} ${err.stack ?? ''}`;
      assert.ok(!shown.includes(CANARY), `key leaked: ${shown}`);
      assert.match(err.message, /\[redacted\]/);
    }
    const bad = await providerErrorOf(provider({ maxRetries: 0 }).streamChat(chat()));
    assert.ok(!`${bad.message} ${bad.remedy}`.includes(CANARY));
  });

  it('maps a failing model listing and reports it as unhealthy with the remedy', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const health = await provider({ id: 'ggufserver', baseURL: url }).checkHealth();
    assert.equal(health.ok, false);
    assert.match(health.message, /cannot reach ggufserver/);
    assert.match(health.remedy ?? '', /start the server/);
  });
});
