import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import type { LocalRunnerProvider } from '../../../src/runtime/providers/localrunner/provider';
import { startLocalRunnerStub, type LocalRunnerStub } from '../../stubs/localrunner-stub';
import { chat, config, FAST_RETRY, providerErrorOf } from './helpers';

/** spec §7 localrunner: out of memory → smaller model or lower numCtx; GPU not detected → install the proper driver. */
describe('localrunner remedies for the runner’s real memory and GPU messages', () => {
  let stub: LocalRunnerStub;
  beforeEach(async () => {
    stub = await startLocalRunnerStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const runner = (settings: Record<string, unknown> = {}): LocalRunnerProvider =>
    createProvider(config({ provider: 'localrunner', localrunner: { baseUrl: stub.origin, ...settings } }), {}, FAST_RETRY) as LocalRunnerProvider;
  const chatRequests = () => stub.requests.filter((r) => r.path === '/api/chat').length;

  const OUT_OF_MEMORY = [
    'llama runner process has terminated: signal: killed',
    'error loading model: unable to allocate CUDA0 buffer',
    'insufficient VRAM to load any model layers',
  ];
  for (const message of OUT_OF_MEMORY) {
    it(`"${message}" (HTTP 500) is out of memory, never retried`, async () => {
      stub.enqueue({ status: 500, error: message }, { status: 500, error: message });
      const err = await providerErrorOf(runner({ numCtx: 8192 }).streamChat(chat()));
      assert.match(err.message, /ran out of memory/);
      assert.ok(err.message.includes(message), err.message);
      assert.match(err.remedy, /smaller model.*localrunner\.numCtx \(now 8192\)/);
      assert.equal(chatRequests(), 1, 'not retried');
    });
  }

  it('an out-of-memory kill reported in the stream is out of memory too', async () => {
    stub.enqueue({ text: 'part', errorLineAfterText: 'llama runner process has terminated: signal: killed' });
    const err = await providerErrorOf(runner().streamChat(chat()));
    assert.match(err.message, /ran out of memory/);
    assert.match(err.remedy, /reduce localrunner\.numCtx/);
  });

  it('"CUDA driver version is insufficient for CUDA runtime version" → install or update the GPU driver, not retried', async () => {
    const message = 'CUDA driver version is insufficient for CUDA runtime version';
    stub.enqueue({ status: 500, error: message }, { status: 500, error: message });
    const err = await providerErrorOf(runner().streamChat(chat()));
    assert.match(err.message, /GPU problem.*CUDA driver version is insufficient/);
    assert.match(err.remedy, /^install or update the GPU driver so the runner sees the GPU/);
    assert.match(err.remedy, /to run on the CPU on purpose, set localrunner\.numGpu 0/);
    assert.equal(chatRequests(), 1, 'not retried');
  });

  it('health: a CPU-only model is "no GPU detected" with the driver remedy, unless numGpu is 0 (CPU on purpose)', async () => {
    stub.setRunning([{ name: 'llama3.2:latest', size: 4 * 1024 ** 3, sizeVram: 0 }]);
    const auto = await runner().checkHealth();
    assert.match(auto.message, /CPU only \(no GPU detected\)/);
    assert.match(auto.remedy ?? '', /^install or update the GPU driver so the runner sees the GPU/);
    assert.doesNotMatch(auto.remedy ?? '', /enable the GPU/);
    const onPurpose = await runner({ numGpu: 0 }).checkHealth();
    assert.equal(onPurpose.ok, true);
    assert.doesNotMatch(onPurpose.message, /no GPU detected|will be slow/);
    assert.equal(onPurpose.remedy, undefined);
  });
});
