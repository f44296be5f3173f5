import { strict as assert } from 'node:assert';
import { createProvider } from '../../../src/runtime/providers/create-provider';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, config, FAST_RETRY, providerErrorOf } from './helpers';

/** The gguf model server's error body: `{ error: { code: <status>, message, type } }`. */
const serverError = (status: number, message: string, type = 'server_error') => ({
  status,
  errorBody: { error: { code: status, message, type } },
});

describe('ggufserver remedies (spec 000 §7) from the model server’s answers', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  const gguf = (idleTimeoutMs?: number) =>
    createProvider(config({ provider: 'ggufserver', ggufserver: { baseUrl: stub.origin } }), {}, {
      ...FAST_RETRY,
      maxRetries: 1,
      ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
    });

  it('500 "CUDA error: out of memory" → reduce --n-gpu-layers or --ctx-size (not retried)', async () => {
    stub.enqueue(serverError(500, 'CUDA error: out of memory\n  current device: 0, in function ggml_cuda_op_mul_mat'));
    const err = await providerErrorOf(gguf().streamChat(chat()));
    assert.equal(err.code, 'provider_error');
    assert.match(err.message, /the model server at .* ran out of memory \(HTTP 500\): CUDA error: out of memory/);
    assert.match(err.remedy, /^reduce `--n-gpu-layers` or `--ctx-size`/);
    assert.equal(stub.requests.length, 1, 'a memory failure is not retried');
  });

  it('a CUDA error that is not memory → update drivers; rebuild for the right CUDA version', async () => {
    stub.enqueue(serverError(500, 'CUDA error: no kernel image is available for execution on the device'));
    const err = await providerErrorOf(gguf().streamChat(chat()));
    assert.match(err.message, /has a CUDA error/);
    assert.match(err.remedy, /update the GPU drivers and rebuild the model server for the right CUDA version/);
  });

  it('"Metal not available" → rebuild with Metal enabled', async () => {
    stub.enqueue(serverError(500, 'ggml_metal_init: error: Metal not available'));
    const err = await providerErrorOf(gguf().streamChat(chat()));
    assert.match(err.message, /has a Metal \(GPU\) problem/);
    assert.equal(err.remedy, 'rebuild the model server with Metal enabled');
  });

  it('"invalid gguf magic" / failed to load model → verify the gguf format and file integrity', async () => {
    stub.enqueue(serverError(500, 'gguf_init_from_file: invalid magic characters; failed to load model'));
    const err = await providerErrorOf(gguf().streamChat(chat()));
    assert.equal(err.code, 'model_not_available');
    assert.match(err.message, /could not load its model/);
    assert.match(err.remedy, /^verify the gguf format and file integrity/);
  });

  it('503 "Loading model" is retried, then names the loading state and the file check', async () => {
    stub.enqueue(serverError(503, 'Loading model', 'unavailable_error'), serverError(503, 'Loading model', 'unavailable_error'));
    const err = await providerErrorOf(gguf().streamChat(chat()));
    assert.equal(stub.requests.length, 2, 'retried once (maxRetries 1)');
    assert.equal(err.status, 503);
    assert.match(err.message, /is still loading its model/);
    assert.match(err.remedy, /wait until the server has loaded the model.*verify the gguf format and file integrity/);
  });

  it('slow inference (the idle timeout fires) → more GPU layers or a smaller quantization', async () => {
    stub.enqueue({ text: 'partial', hang: true });
    const err = await providerErrorOf(gguf(150).streamChat(chat()));
    assert.equal(err.code, 'stream_timeout');
    assert.match(err.remedy, /more GPU layers \(`--n-gpu-layers`\) or use a smaller quantization/);
  });

  it('a healthy answer is unaffected (the stub serves exactly /v1/chat/completions)', async () => {
    stub.enqueue({ text: 'fine' });
    await collect(gguf().streamChat(chat()));
    assert.equal(stub.requests[0]?.path, '/v1/chat/completions');
  });
});
