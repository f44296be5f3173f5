import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { startCloudHubStub } from '../../stubs/cloudhub-stub';
import type { OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, config, textOf } from './helpers';

const KEY = 'hub-key-1234';

/**
 * Spec 000 §2.4.4: "| baseUrl | string | none | full endpoint URL override; bypasses resourceName and deploymentName |"
 * (and "| CLOUDHUB_ENDPOINT | cloudhub.baseUrl |", tested in env-overrides.test.ts).
 */
describe('cloudhub baseUrl as a full endpoint override', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startCloudHubStub({ deployments: ['gpt4o'], apiKey: KEY });
  });
  afterEach(async () => {
    await stub.close();
  });

  async function send(cloudhub: Record<string, unknown>): Promise<{ path: string; query: Record<string, unknown> }> {
    const p = createProvider(config({ provider: 'cloudhub', cloudhub: { apiKey: KEY, ...cloudhub } }), {}, { maxRetries: 0 });
    stub.enqueue({ text: 'ok' });
    assert.equal(textOf(await collect(p.streamChat(chat()))), 'ok');
    const req = stub.requests.at(-1);
    assert.ok(req, 'the deployment received the request');
    assert.equal(p.model, 'gpt4o');
    return { path: req.path, query: req.query };
  }

  const PATH = '/openai/deployments/gpt4o/chat/completions';

  it("the portal's full target address (…/chat/completions?api-version=…): its path and api-version, no deploymentName", async () => {
    const req = await send({ baseUrl: `${stub.origin}${PATH}?api-version=2025-01-01-preview` });
    assert.equal(req.path, PATH);
    assert.deepEqual(req.query, { 'api-version': '2025-01-01-preview' });
  });

  it('the full chat-completions URL with a trailing slash and without a query uses the default api-version', async () => {
    const req = await send({ baseUrl: `${stub.origin}${PATH}/` });
    assert.equal(req.path, PATH);
    assert.deepEqual(req.query, { 'api-version': '2024-10-21' });
  });

  it('a deployment URL with a trailing slash and an api-version query', async () => {
    const req = await send({ baseUrl: `${stub.origin}/openai/deployments/gpt4o/?api-version=2024-06-01` });
    assert.equal(req.path, PATH);
    assert.deepEqual(req.query, { 'api-version': '2024-06-01' });
  });

  it('an explicitly configured apiVersion wins over the one in the URL', async () => {
    const req = await send({ baseUrl: `${stub.origin}${PATH}?api-version=2025-01-01-preview`, apiVersion: '2024-02-01' });
    assert.deepEqual(req.query, { 'api-version': '2024-02-01' });
  });

  it('the resource endpoint with a query: the deployment path goes before the query, not after it', async () => {
    const req = await send({ baseUrl: `${stub.origin}/?api-version=2024-06-01`, deploymentName: 'gpt4o' });
    assert.equal(req.path, PATH);
    assert.deepEqual(req.query, { 'api-version': '2024-06-01' });
  });

  it('the baseUrl wins over resourceName and deploymentName', async () => {
    const req = await send({ baseUrl: `${stub.origin}${PATH}`, resourceName: 'elsewhere', deploymentName: 'other-dep' });
    assert.equal(req.path, PATH);
  });
});
