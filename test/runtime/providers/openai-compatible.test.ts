import { strict as assert } from 'node:assert';
import { createOpenAICompatibleProvider } from '../../../src/runtime/providers/openai-compatible';
import { ProviderError, type ChatRequest } from '../../../src/runtime/providers/types';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, failureOf, providerErrorOf, textOf } from './helpers';

describe('OpenAI-compatible provider: streaming against the stub server', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const provider = (extra: Partial<Parameters<typeof createOpenAICompatibleProvider>[0]> = {}) =>
    createOpenAICompatibleProvider({ id: 'ggufserver', model: 'test-model', baseURL: stub.url, ...extra });

  it('streams text as several deltas and ends with done/stop', async () => {
    stub.enqueue({ text: 'The quick brown fox jumps.', chunkDelayMs: 5 }); // paced like a real server
    const chunks = await collect(provider().streamChat(chat()));
    const deltas = chunks.filter((c) => c.type === 'text');
    assert.ok(deltas.length > 1, 'text should arrive as several deltas');
    assert.equal(textOf(chunks), 'The quick brown fox jumps.');
    assert.deepEqual(chunks.at(-1), { type: 'done', finishReason: 'stop' });
    assert.equal(stub.requests[0]?.body.stream, true);
    assert.equal(stub.requests[0]?.body.model, 'test-model');
  });

  it('joins text deltas that arrive in one network read into one delta', async () => {
    stub.enqueue({ text: 'The quick brown fox jumps.' }); // the stub writes every frame at once
    const chunks = await collect(provider().streamChat(chat()));
    assert.deepEqual(chunks.filter((c) => c.type === 'text'), [{ type: 'text', delta: 'The quick brown fox jumps.' }]);
  });

  it('accumulates the deltas of two tool calls in one response and yields each complete call', async () => {
    stub.enqueue({
      text: 'Reading both.',
      toolCalls: [
        { id: 'call_a', name: 'read_file', arguments: { path: 'src/a.ts', lines: [1, 20] } },
        { id: 'call_b', name: 'grep', arguments: { pattern: 'TODO', glob: '**/*.ts' } },
      ],
      usage: { prompt_tokens: 11, completion_tokens: 7 },
    });
    const chunks = await collect(provider({ includeUsage: true }).streamChat(chat()));
    const calls = chunks.filter((c) => c.type === 'tool_call');
    assert.deepEqual(calls, [
      { type: 'tool_call', id: 'call_a', name: 'read_file', arguments: '{"path":"src/a.ts","lines":[1,20]}' },
      { type: 'tool_call', id: 'call_b', name: 'grep', arguments: '{"pattern":"TODO","glob":"**/*.ts"}' },
    ]);
    assert.deepEqual(chunks.slice(-2), [
      { type: 'usage', inputTokens: 11, outputTokens: 7 },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    assert.equal(textOf(chunks), 'Reading both.');
    assert.deepEqual(stub.requests[0]?.body.stream_options, { include_usage: true });
  });

  it('reads usage from the final chunk too, and sends no stream_options unless asked', async () => {
    stub.enqueue({ text: 'ok', usage: { prompt_tokens: 3, completion_tokens: 1 } });
    const chunks = await collect(provider().streamChat(chat()));
    assert.deepEqual(chunks.find((c) => c.type === 'usage'), { type: 'usage', inputTokens: 3, outputTokens: 1 });
    assert.equal(stub.requests[0]?.body.stream_options, undefined);
  });

  it('maps history, tools and json_schema response format to the wire shapes', async () => {
    stub.enqueue({ text: '{}' });
    const req: ChatRequest = {
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'ls', arguments: '{"dir":"."}' }] },
        { role: 'tool', content: 'a.ts', toolCallId: 'c1', toolName: 'ls' },
      ],
      tools: [{ name: 'ls', description: 'list a directory', parameters: { type: 'object', properties: {} } }],
      responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object' } },
      signal: new AbortController().signal,
    };
    await collect(provider({ maxTokens: 99, temperature: 0.2, topP: 0.5 }).streamChat(req));
    const body = stub.requests[0]?.body;
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
    ]);
    assert.deepEqual(body.tools, [
      { type: 'function', function: { name: 'ls', description: 'list a directory', parameters: { type: 'object', properties: {} } } },
    ]);
    assert.deepEqual(body.response_format, {
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object' }, strict: false },
    });
    assert.equal(body.max_tokens, 99);
    assert.equal(body.temperature, 0.2);
    assert.equal(body.top_p, 0.5);
  });

  it('sends json_object response format and omits an empty tool list', async () => {
    stub.enqueue({ text: '{}' });
    await collect(provider().streamChat({ ...chat(), responseFormat: { type: 'json_object' } }));
    assert.deepEqual(stub.requests[0]?.body.response_format, { type: 'json_object' });
    assert.equal('tools' in (stub.requests[0]?.body ?? {}), false);
  });

  it('rejects a tool message without toolCallId with a clear error', async () => {
    const err = await failureOf(provider().streamChat(chat([{ role: 'tool', content: 'x' }])));
    assert.match(String(err), /history message #0 has role "tool" but no toolCallId/);
    assert.equal(stub.requests.length, 0);
  });

  it('sends no Authorization header without a key, and a Bearer header with one', async () => {
    stub.enqueue({ text: 'a' }, { text: 'b' });
    await collect(provider().streamChat(chat()));
    await collect(provider({ apiKey: 'k-123456' }).streamChat(chat()));
    assert.equal(stub.requests[0]?.headers['authorization'], undefined);
    assert.equal(stub.requests[1]?.headers['authorization'], 'Bearer k-123456');
  });

  it('uses getToken for the bearer token of each request', async () => {
    stub.enqueue({ text: 'a' });
    let calls = 0;
    await collect(provider({ getToken: async () => `token-${++calls}` }).streamChat(chat()));
    assert.equal(stub.requests[0]?.headers['authorization'], 'Bearer token-1');
  });

  it('aborts mid-stream via the request signal and stops reading', async () => {
    stub.enqueue({ text: 'x'.repeat(400), chunkDelayMs: 20 });
    const controller = new AbortController();
    const seen: string[] = [];
    const err = await failureOf(
      (async function* () {
        for await (const chunk of provider().streamChat(chat(undefined, controller.signal))) {
          if (chunk.type === 'text') seen.push(chunk.delta);
          if (seen.length === 2) controller.abort();
          yield chunk;
        }
      })(),
    );
    assert.equal((err as Error).name, 'AbortError');
    assert.ok(seen.join('').length < 400, 'the stream must stop before the whole answer arrived');
  });

  it('aborts a hanging stream', async () => {
    stub.enqueue({ hang: true });
    const controller = new AbortController();
    const stream = provider().streamChat(chat(undefined, controller.signal));
    setTimeout(() => controller.abort(), 50);
    const err = await failureOf(stream);
    assert.equal((err as Error).name, 'AbortError');
  });

  it('fails with stream_timeout when no chunk arrives within the idle timeout', async () => {
    stub.enqueue({ hang: true });
    const err = await providerErrorOf(provider({ idleTimeoutMs: 150 }).streamChat(chat()));
    assert.equal(err.code, 'stream_timeout');
    assert.match(err.message, /no data from ggufserver at http:\/\/127\.0\.0\.1:\d+\/v1 \(model "test-model"\) for 0\.2 s/);
    assert.equal(stub.requests.length, 1, 'a timed-out stream is not retried');
  });

  it('reports a connection cut in mid-answer as a provider_error, not as a complete answer', async () => {
    stub.enqueue({ text: 'partial answer', hang: true });
    const seen: string[] = [];
    const err = await failureOf(
      (async function* () {
        for await (const chunk of provider().streamChat(chat())) {
          if (chunk.type === 'text' && seen.push(chunk.delta) === 1) await stub.close();
          yield chunk;
        }
      })(),
    );
    assert.ok(err instanceof ProviderError, String(err));
    assert.equal(err.code, 'provider_error');
    assert.match(err.message, /connection to ggufserver at .* broke off in the middle of the answer/);
    assert.ok(seen.length > 0);
    stub = await startOpenAIStub(); // afterEach closes it
  });

  it('lists models and reports health', async () => {
    stub.setModels(['loaded.gguf']);
    const p = provider({ contextWindow: 4096, model: 'loaded.gguf' });
    assert.deepEqual(await p.listModels(), [
      { id: 'loaded.gguf', available: true, contextWindow: 4096, extra: { object: 'model', created: 0, owned_by: 'stub' } },
    ]);
    const health = await p.checkHealth();
    assert.equal(health.ok, true);
    assert.match(health.message, /ggufserver at http:\/\/127\.0\.0\.1:\d+\/v1 is reachable; models: loaded\.gguf/);
    assert.equal(stub.requests.at(-1)?.path, '/v1/models');
  });
});
