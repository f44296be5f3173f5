import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { parseModelSelector } from '../../../src/runtime/providers/model-selector';
import { estimateInputTokens } from '../../../src/runtime/providers/serviceai/limits';
import { resolveServiceAiModel } from '../../../src/runtime/providers/serviceai/models';
import { planHint } from '../../../src/runtime/providers/serviceai/plans';
import { ProviderError } from '../../../src/runtime/providers/types';
import { startServiceAiStub, type ServiceAiStub } from '../../stubs/serviceai-stub';
import { chat, collect, config, FAST_RETRY, providerErrorOf, textOf } from './helpers';

describe('serviceai: catalog, plans, aliases, limits', () => {
  let stub: ServiceAiStub;
  beforeEach(async () => {
    stub = await startServiceAiStub();
    stub.addKey('key-free', 'Free');
    stub.addKey('key-lite', 'Lite');
    stub.addKey('key-pro', 'Pro');
  });
  afterEach(async () => {
    await stub.close();
  });

  const service = (apiKey: string, model?: string, extra: Record<string, unknown> = {}) =>
    createProvider(config({ provider: 'serviceai', serviceai: { baseUrl: stub.origin, apiKey, ...extra } }), model ? { model } : {}, FAST_RETRY);

  it('GET /v1/models with the Bearer key; unknown catalog fields kept in extra', async () => {
    const models = await service('key-pro').listModels();
    const req = stub.requests[0];
    assert.deepEqual([req?.method, req?.path, req?.headers['authorization']], ['GET', '/v1/models', 'Bearer key-pro']);
    const moa = models.find((m) => m.id === 'moa');
    assert.deepEqual(moa?.extra, { object: 'model', owned_by: 'service', capabilities: { tools: true, reasoning: true } });
    assert.equal(moa?.contextWindow, 1_000_000);
    assert.equal(moa?.maxOutput, 262_000);
    assert.ok(models.some((m) => m.id === 'thirdparty-3' && m.available), 'third-party models of the plan are listed');
  });

  it('Free plan: fantail available; moa and weka listed as not in the plan with the plan that includes them', async () => {
    const models = await service('key-free').listModels();
    assert.deepEqual(models.map((m) => [m.id, m.available]), [['fantail', true], ['weka', false], ['moa', false]]);
    const moa = models.find((m) => m.id === 'moa');
    assert.match(moa?.reason ?? '', /not in your plan: included from the Pro plan \(Pro, Pro\+, Max, Team, Enterprise\)/);
    const weka = models.find((m) => m.id === 'weka');
    // Both statements of the spec about weka's plan, as given.
    assert.match(weka?.reason ?? '', /from the Lite plan in the plan list; the model table says Pro and above/);
    assert.match(weka?.reason ?? '', /typed decisions only/);
  });

  it('weka in the catalog is listed for discovery but unavailable for chat, pointing to decisions', async () => {
    const models = await service('key-lite').listModels();
    const weka = models.find((m) => m.id === 'weka');
    assert.equal(weka?.available, false);
    assert.match(weka?.reason ?? '', /agentcli decide/);
    assert.deepEqual(weka?.extra?.['lifecycle'], 'public-preview');
    assert.ok(!models.some((m) => m.id === 'moa' && m.available));
  });

  it('selecting weka for chat is a clear error pointing to decisions; nothing is sent', () => {
    for (const model of ['weka', 'serviceai/weka', 'serviceai:weka']) {
      assert.throws(
        () => service('key-pro', model),
        (e: unknown) => e instanceof ProviderError && /typed decisions only/.test(e.message) && /agentcli decide/.test(e.remedy),
      );
    }
    assert.equal(stub.requests.length, 0);
  });

  it('provider-qualified aliases resolve to the bare id on the wire', async () => {
    assert.deepEqual(parseModelSelector('serviceai:moa'), { provider: 'serviceai', model: 'moa' });
    assert.deepEqual(parseModelSelector('llama3.2:latest'), { model: 'llama3.2:latest' });
    assert.equal(resolveServiceAiModel('SERVICEAI/fantail'), 'fantail');
    for (const alias of ['serviceai/fantail', 'serviceai:fantail', 'fantail']) {
      stub.enqueueChat({ text: 'ok' });
      const p = service('key-free', alias);
      assert.equal(p.model, 'fantail');
      await collect(p.streamChat(chat()));
      assert.equal(stub.requests.at(-1)?.body.model, 'fantail');
    }
    // The global `model` setting may use the alias too.
    const viaConfig = createProvider(config({ model: 'serviceai:moa', serviceai: { baseUrl: stub.origin, apiKey: 'key-pro' } }));
    assert.equal(viaConfig.model, 'moa');
  });

  it('chat: Bearer key, max output capped at the model limit, reasoning sent for moa only', async () => {
    stub.enqueueChat({ text: 'fast' }, { text: 'deep' });
    await collect(service('key-pro', 'fantail', { reasoning: 'xhigh' }).streamChat(chat()));
    await collect(service('key-pro', 'moa', { reasoning: 'xhigh' }).streamChat(chat()));
    const [fantail, moa] = stub.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(fantail?.headers['authorization'], 'Bearer key-pro');
    assert.equal(fantail?.body.max_tokens, 16_000);
    assert.equal(fantail?.body.reasoning_effort, undefined);
    assert.equal(moa?.body.max_tokens, 262_000);
    assert.equal(moa?.body.reasoning_effort, 'xhigh');
  });

  it('streams tool calls from the hosted chat', async () => {
    stub.enqueueChat({ text: 'Looking.', toolCalls: [{ name: 'grep', arguments: { pattern: 'TODO' } }] });
    const chunks = await collect(service('key-free').streamChat(chat()));
    assert.equal(textOf(chunks), 'Looking.');
    const call = chunks.find((c) => c.type === 'tool_call');
    assert.deepEqual(call && call.type === 'tool_call' ? JSON.parse(call.arguments) : undefined, { pattern: 'TODO' });
  });

  it('a prompt over the input limit fails before any request, saying the count is an estimate', async () => {
    const big = 'x'.repeat(800_000); // ≈ 266,667 estimated tokens > 256,000
    const err = await providerErrorOf(service('key-pro', 'fantail').streamChat(chat([{ role: 'user', content: big }])));
    assert.equal(err.code, 'context_too_long');
    assert.match(err.message, /about 266,6\d\d tokens \(an estimate/);
    assert.match(err.message, /limit of 256,000 input tokens; nothing was sent/);
    assert.match(err.remedy, /switch to moa/);
    assert.equal(stub.requests.length, 0, 'no request was sent');
    stub.enqueueChat({ text: 'fits' });
    assert.equal(textOf(await collect(service('key-pro', 'moa').streamChat(chat([{ role: 'user', content: big }])))), 'fits');
  });

  it('the estimate errs high: about one token per 3 bytes, plus framing and tool schemas', () => {
    const tools = [{ name: 't', description: 'd', parameters: { type: 'object' } }];
    const plain = estimateInputTokens({ messages: [{ role: 'user', content: 'abcdef' }], tools: [] });
    assert.equal(plain, 2 + 4);
    assert.ok(estimateInputTokens({ messages: [{ role: 'user', content: 'abcdef' }], tools }) > plain);
  });

  it('a model outside the plan is refused by the service; the remedy names the plan that includes it', async () => {
    const err = await providerErrorOf(service('key-free', 'moa').streamChat(chat()));
    assert.equal(err.status, 403);
    assert.equal(err.code, 'not_in_plan', 'a plan refusal is not a credentials problem');
    assert.match(err.message, /^"moa" is not in your plan \(Free\)/);
    assert.doesNotMatch(err.message, /rejected the credentials/);
    assert.match(err.remedy, /^upgrade to a plan that includes "moa" \(it is included from the Pro plan \(Pro, Pro\+, Max, Team, Enterprise\)\)/);
  });

  it('a bare 403 or 404 for fantail (in every plan) keeps the verify-the-key remedy, never "upgrade the plan"', async () => {
    const denied = { error: { message: 'Permission denied', code: 'permission_denied' } };
    stub.enqueueChat({ status: 403, errorBody: denied }, { status: 404, errorBody: { error: { message: 'Not found', code: null } } });
    const forbidden = await providerErrorOf(service('key-free', 'fantail').streamChat(chat()));
    assert.equal(forbidden.code, 'auth_failed');
    assert.match(forbidden.remedy, /^verify the API key \(serviceai\.apiKey \/ SERVICE_API_KEY\)/);
    const missing = await providerErrorOf(service('key-free', 'fantail').streamChat(chat()));
    assert.equal(missing.status, 404);
    for (const err of [forbidden, missing]) assert.doesNotMatch(err.remedy, /plan|upgrade/i, err.remedy);
  });

  it('a bare 403 for moa (outside Free and Lite) names the plan that includes it and the key check', async () => {
    stub.enqueueChat({ status: 403, errorBody: { error: { message: 'Permission denied', code: 'permission_denied' } } });
    const err = await providerErrorOf(service('key-pro', 'moa').streamChat(chat()));
    assert.match(err.remedy, /^"moa" may not be in your plan: it is included from the Pro plan/);
    assert.match(err.remedy, /verify the API key \(serviceai\.apiKey \/ SERVICE_API_KEY\)$/);
  });

  it('health: reachable with the plan catalog; a selected model outside it is reported with its plan', async () => {
    const ok = await service('key-pro').checkHealth();
    assert.equal(ok.ok, true);
    assert.match(ok.message, /fantail, weka \(.*\), moa/);
    const outside = await service('key-free', 'moa').checkHealth();
    assert.equal(outside.ok, false);
    assert.match(outside.remedy ?? '', /included from the Pro plan/);
  });

  it('an unknown key is auth_failed and the key never appears in the message', async () => {
    const err = await service('sk-unknown-canary-9f8e7d').listModels().then(
      () => undefined,
      (e: unknown) => e as ProviderError,
    );
    assert.equal(err?.code, 'auth_failed');
    assert.ok(err && !err.message.includes('sk-unknown-canary-9f8e7d'), err?.message);
    assert.match(err?.remedy ?? '', /SERVICE_API_KEY/);
  });

  it('the plan hint keeps both spec statements for weka and one for the others', () => {
    assert.equal(planHint('fantail'), 'included from the Free plan (Free, Lite, Pro, Pro+, Max, Team, Enterprise)');
    assert.match(planHint('weka') ?? '', /Lite plan in the plan list; the model table says Pro and above/);
    assert.equal(planHint('thirdparty-1'), undefined);
  });
});
