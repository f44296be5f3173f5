import { strict as assert } from 'node:assert';
import { loadConfig } from '../../../src/runtime/config/load';
import { main } from '../../../src/runtime/cli/main';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import type { LocalRunnerProvider } from '../../../src/runtime/providers/localrunner/provider';
import { startLocalRunnerStub, type LocalRunnerStub } from '../../stubs/localrunner-stub';
import { chat, closedPort, collect, config, FAST_RETRY, providerErrorOf, textOf } from './helpers';
import { ProviderError, type ChatToolSpec } from '../../../src/runtime/providers/types';
import { makeTempDir } from '../../helpers/temp-dir';

const READ_TOOL: ChatToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
};

describe('localrunner provider (native API)', () => {
  let stub: LocalRunnerStub;
  beforeEach(async () => {
    stub = await startLocalRunnerStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const runner = (settings: Record<string, unknown> = {}, model?: string): LocalRunnerProvider =>
    createProvider(config({ provider: 'localrunner', localrunner: { baseUrl: stub.origin, ...settings } }), model ? { model } : {}, FAST_RETRY) as LocalRunnerProvider;

  it('streams NDJSON text with num_ctx, temperature and keep_alive sent explicitly', async () => {
    stub.enqueue({ text: 'Hello from the local model', promptEvalCount: 21, evalCount: 6 });
    const chunks = await collect(runner().streamChat(chat()));
    assert.equal(textOf(chunks), 'Hello from the local model');
    assert.ok(chunks.filter((c) => c.type === 'text').length > 2, 'several deltas');
    assert.deepEqual(chunks.slice(-2), [
      { type: 'usage', inputTokens: 21, outputTokens: 6 },
      { type: 'done', finishReason: 'stop' },
    ]);
    const req = stub.requests.find((r) => r.path === '/api/chat');
    assert.equal(req?.method, 'POST');
    assert.equal(req?.body.model, 'llama3.2');
    assert.equal(req?.body.stream, true);
    assert.deepEqual(req?.body.options, { num_ctx: 4096, temperature: 0.7 });
    assert.equal(req?.body.keep_alive, '5m');
    assert.equal(req?.headers['authorization'], undefined);
  });

  it('sends num_gpu, num_thread and num_batch when set, and keep_alive 0 / -1 as numbers', async () => {
    stub.enqueue({ text: 'a' }, { text: 'b' });
    await collect(runner({ numCtx: 8192, temperature: 0.2, numGpu: 33, numThread: 8, numBatch: 512, keepAlive: '0' }).streamChat(chat()));
    await collect(runner({ keepAlive: '-1' }).streamChat(chat()));
    const [first, second] = stub.requests.filter((r) => r.path === '/api/chat');
    assert.deepEqual(first?.body.options, { num_ctx: 8192, temperature: 0.2, num_gpu: 33, num_thread: 8, num_batch: 512 });
    assert.equal(first?.body.keep_alive, 0);
    assert.equal(second?.body.keep_alive, -1);
  });

  it('contextLength caps num_ctx and is the context window', async () => {
    stub.enqueue({ text: 'x' });
    const p = runner({ numCtx: 16384, contextLength: 8192 });
    assert.equal(p.contextWindow, 8192);
    await collect(p.streamChat(chat()));
    assert.equal(stub.requests[0]?.body.options.num_ctx, 8192);
  });

  it('offers tools and turns streamed tool calls (object arguments) into JSON text; history goes back natively', async () => {
    stub.enqueue({ text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] });
    const req = { ...chat(), tools: [READ_TOOL] };
    const chunks = await collect(runner().streamChat(req));
    const call = chunks.find((c) => c.type === 'tool_call');
    assert.ok(call && call.type === 'tool_call');
    assert.equal(call.name, 'read_file');
    assert.deepEqual(JSON.parse(call.arguments), { path: 'src/a.ts' });
    assert.deepEqual(chunks.at(-1), { type: 'done', finishReason: 'tool_calls' });
    const sent = stub.requests[0]?.body;
    assert.deepEqual(sent.tools, [{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: READ_TOOL.parameters } }]);

    stub.enqueue({ text: 'It exports a.' });
    await collect(
      runner().streamChat(
        chat([
          { role: 'user', content: 'read a' },
          { role: 'assistant', content: '', toolCalls: [{ id: call.id, name: 'read_file', arguments: call.arguments }] },
          { role: 'tool', content: 'export const a = 1;', toolCallId: call.id },
        ]),
      ),
    );
    const messages = stub.requests[1]?.body.messages;
    assert.deepEqual(messages[1].tool_calls[0].function, { name: 'read_file', arguments: { path: 'src/a.ts' } });
    assert.deepEqual([messages[2].role, messages[2].tool_name, messages[2].content], ['tool', 'read_file', 'export const a = 1;']);
  });

  it('connection refused → start the server (`serve`), naming the URL', async () => {
    const port = await closedPort();
    const p = createProvider(config({ provider: 'localrunner', localrunner: { baseUrl: `http://127.0.0.1:${port}` } }), {}, FAST_RETRY);
    const err = await providerErrorOf(p.streamChat(chat()));
    assert.equal(err.code, 'connection_refused');
    assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}.*connection refused`));
    assert.match(err.remedy, /serve/);
    assert.match(err.remedy, new RegExp(`http://127\\.0\\.0\\.1:${port}`));
    const health = await p.checkHealth();
    assert.equal(health.ok, false);
    assert.match(health.remedy ?? '', /serve/);
  });

  it('model not found → pull the model first, naming it', async () => {
    const err = await providerErrorOf(runner({}, 'qwen2.5-coder:7b').streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.equal(err.status, 404);
    assert.match(err.message, /qwen2\.5-coder:7b/);
    assert.match(err.remedy, /pull qwen2\.5-coder:7b/);
  });

  it('out of memory (HTTP error or a stream error line) → smaller model or lower numCtx', async () => {
    stub.enqueue({ status: 500, error: 'model requires more system memory (9.1 GiB) than is available (6.0 GiB)' });
    const err = await providerErrorOf(runner({ numCtx: 8192 }, undefined).streamChat(chat()));
    assert.match(err.message, /ran out of memory.*HTTP 500/);
    assert.equal(stub.requests.filter((r) => r.path === '/api/chat').length, 1, 'not retried');
    assert.match(err.remedy, /smaller model/);
    assert.match(err.remedy, /numCtx \(now 8192\)/);
    stub.enqueue({ text: 'partial', errorLineAfterText: 'CUDA error: out of memory' });
    const inStream = await providerErrorOf(runner().streamChat(chat()));
    assert.match(inStream.remedy, /reduce localrunner\.numCtx/);
  });

  it('a GPU failure → install the proper driver (or run on the CPU)', async () => {
    stub.enqueue({ status: 500, error: 'CUDA driver version is insufficient: GPU not detected' });
    const err = await providerErrorOf(runner().streamChat(chat()));
    assert.match(err.message, /GPU problem/);
    assert.match(err.remedy, /install or update the GPU driver/);
  });

  it('localrunner.enabled false: selecting the provider is a config_error naming the key and the fix; true or unset runs', async () => {
    const disabled = config({ provider: 'serviceai', localrunner: { baseUrl: stub.origin, enabled: false } });
    for (const select of [() => createProvider({ ...disabled, provider: 'localrunner' }), () => createProvider(disabled, { model: 'localrunner/llama3.2' })]) {
      const err = (() => {
        try {
          select();
        } catch (e) {
          return e as ProviderError;
        }
        return undefined;
      })();
      assert.ok(err instanceof ProviderError, 'selecting a disabled localrunner throws');
      assert.equal(err.code, 'config_error');
      assert.match(err.message, /localrunner\.enabled is false/);
      assert.match(err.remedy, /agentcli config set localrunner\.enabled true.*another provider/);
    }
    assert.equal(stub.requests.length, 0, 'nothing was sent');
    stub.enqueue({ text: 'on' });
    assert.equal(textOf(await collect(runner({ enabled: true }).streamChat(chat()))), 'on');
  });

  it('a stream cut off before the done line is an error, not a complete answer', async () => {
    stub.enqueue({ text: 'half an answ', cutOff: true });
    const err = await providerErrorOf(runner().streamChat(chat()));
    assert.equal(err.code, 'provider_error');
    assert.match(err.message, /before it said it was done/);
  });

  it('lists installed models as <name>:<tag> (GET /api/tags) with their details kept', async () => {
    stub.setInstalled(['llama3.2:latest', 'qwen2.5-coder:7b']);
    const models = await runner().listModels();
    assert.deepEqual(models.map((m) => m.id), ['llama3.2:latest', 'qwen2.5-coder:7b']);
    assert.equal(models[0]?.contextWindow, 4096, 'the configured model (llama3.2 = llama3.2:latest) carries num_ctx');
    assert.deepEqual((models[1]?.extra as { details?: unknown }).details, { format: 'gguf', family: 'stub' });
  });

  it('health names running models and GPU use; CPU-only models get the slow/GPU hint', async () => {
    stub.setRunning([{ name: 'llama3.2:latest', size: 4 * 1024 ** 3, sizeVram: 4 * 1024 ** 3 }]);
    const gpu = await runner().checkHealth();
    assert.equal(gpu.ok, true);
    assert.match(gpu.message, /llama3\.2:latest \(4\.0 GB, 100% GPU\)/);
    assert.equal(gpu.remedy, undefined);
    stub.setRunning([{ name: 'llama3.2:latest', size: 4 * 1024 ** 3, sizeVram: 0 }]);
    const cpu = await runner().checkHealth();
    assert.match(cpu.message, /CPU only/);
    assert.match(cpu.remedy ?? '', /GPU driver.*smaller model/);
    assert.ok(stub.requests.some((r) => r.path === '/api/ps'));
  });

  it('health says when the configured model is not installed, with the pull remedy', async () => {
    stub.setInstalled(['other:1b']);
    const report = await runner().checkHealth();
    assert.equal(report.ok, false);
    assert.match(report.message, /"llama3\.2" is not installed \(installed: other:1b\)/);
    assert.match(report.remedy ?? '', /pull llama3\.2/);
  });

  it('unload posts /api/generate with keep_alive 0', async () => {
    stub.setRunning([{ name: 'llama3.2:latest', size: 1, sizeVram: 1 }]);
    await runner().unload('llama3.2:latest');
    const req = stub.requests.find((r) => r.path === '/api/generate');
    assert.deepEqual(req?.body, { model: 'llama3.2:latest', keep_alive: 0 });
    const err = await runner()
      .unload('missing:1b')
      .then(() => undefined, (e: unknown) => e as Error & { remedy: string });
    assert.match(err?.remedy ?? '', /pull missing:1b/);
  });

  it('LOCALRUNNER_HOST is used when the config file sets no baseUrl (via the config loader)', async () => {
    const dir = makeTempDir('agentcli-lr-');
    const host = stub.origin.replace('http://', '');
    const { config: cfg } = loadConfig({ cwd: dir, home: dir, env: { LOCALRUNNER_HOST: host, SERVICE_PROVIDER: 'localrunner' } });
    stub.enqueue({ text: 'via env' });
    assert.equal(textOf(await collect(createProvider(cfg).streamChat(chat()))), 'via env');
  });
  it('agentcli localrunner status / unload talk to the configured server', async () => {
    const dir = makeTempDir('agentcli-lr-cli-');
    let out = '';
    let err = '';
    const io = { cwd: dir, home: dir, env: { LOCALRUNNER_HOST: stub.origin }, stdout: (s: string) => (out += s), stderr: (s: string) => (err += s) };
    stub.setRunning([{ name: 'llama3.2:latest', size: 2 * 1024 ** 3, sizeVram: 2 * 1024 ** 3 }]);
    assert.equal(await main(['localrunner', 'status'], io), 0, err);
    assert.match(out, /is running with "llama3\.2:latest" installed; running: llama3\.2:latest \(2\.0 GB, 100% GPU\)/);
    assert.equal(await main(['localrunner', 'unload', 'llama3.2:latest'], io), 0, err);
    assert.match(out, /unloaded llama3\.2:latest/);
    assert.deepEqual(stub.requests.at(-1)?.body, { model: 'llama3.2:latest', keep_alive: 0 });
    assert.equal(await main(['localrunner', 'restart'], io), 2);
    assert.match(err, /expected "status" or "unload \[model\]"/);
  });
});
