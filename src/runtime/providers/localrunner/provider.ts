/**
 * localrunner: a local model runner spoken to through its native API (not the chat-completions format).
 * Chat streams NDJSON from `POST /api/chat`; the context size and sampling options are sent with every
 * request; `GET /api/tags` lists installed models, `GET /api/ps` running ones; `POST /api/generate` with
 * `keep_alive: 0` unloads a model.
 */
import { abortError, withRetries, type RetryPolicy } from '../retry';
import { fromNetworkFailure, isRetryable, safeProviderError } from '../errors';
import { readJsonBody, sendNative } from '../http/native-request';
import { acceptedAnswer, fetchStreamPost, nodeStreamPost, releaseBody, type StreamPost, type StreamPostResponse } from '../http/stream-post';
import { ProviderError, type ChatRequest, type HealthReport, type ModelInfo, type ModelProvider, type StreamChunk } from '../types';
import { SecretSet } from '../../debug/redact';
import { GPU_REMEDY, localRunnerRefusal, pullRemedy, outOfMemoryRemedy, startServerRemedy, type LocalRunnerContext } from './remedies';
import { NativeChunkReader, ndjsonLines, StreamedServerError } from './stream';
import { RequestEncoder } from '../http/request-encoder';
import { nativeMessageFormat, toNativeFormat, toNativeTools, wireKeepAlive, type NativeChatFields, type NativeOptions } from './wire';
import { describeRunning, parsePs, parseTags, type RunningModel } from './status';

export const DEFAULT_LOCALRUNNER_TIMEOUT_MS = 300_000;
const STATUS_TIMEOUT_MS = 10_000;

export interface LocalRunnerOptions {
  baseUrl: string;
  model: string;
  numCtx: number;
  temperature: number;
  keepAlive: string | number;
  numGpu?: number;
  numThread?: number;
  numBatch?: number;
  /** Waiting for the first line (loading a model can take minutes) and between lines. Default 300 s. */
  idleTimeoutMs?: number;
  maxRetries?: number;
  retry?: RetryPolicy;
  fetch?: typeof fetch;
}

export class LocalRunnerProvider implements ModelProvider {
  readonly id = 'localrunner' as const;
  readonly model: string;
  readonly contextWindow: number;
  private readonly base: string;
  private readonly ctx: LocalRunnerContext;
  private readonly fetchFn: typeof fetch;
  private readonly idleTimeoutMs: number;
  private readonly encoder = new RequestEncoder(nativeMessageFormat);
  /** Chat goes over node:http (see http/stream-post.ts) unless a fetch is given; the status calls use fetch. */
  private readonly post: StreamPost;
  private readonly chatUrl: URL;

  constructor(private readonly opts: LocalRunnerOptions) {
    this.model = opts.model;
    this.contextWindow = opts.numCtx;
    this.base = opts.baseUrl.replace(/\/+$/, '');
    this.fetchFn = opts.fetch ?? fetch;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_LOCALRUNNER_TIMEOUT_MS;
    this.post = opts.fetch ? fetchStreamPost(opts.fetch) : nodeStreamPost;
    this.chatUrl = new URL(`${this.base}/api/chat`);
    this.ctx = { provider: 'localrunner', model: opts.model, endpoint: this.base, secrets: new SecretSet(), numCtx: opts.numCtx };
  }

  /** The fields of one chat turn's request besides the history; options and keep_alive are always explicit. */
  private chatFields(req: Pick<ChatRequest, 'tools' | 'responseFormat'>): NativeChatFields {
    const o = this.opts;
    const options: NativeOptions = {
      num_ctx: o.numCtx,
      temperature: o.temperature,
      ...(o.numGpu !== undefined ? { num_gpu: o.numGpu } : {}),
      ...(o.numThread !== undefined ? { num_thread: o.numThread } : {}),
      ...(o.numBatch !== undefined ? { num_batch: o.numBatch } : {}),
    };
    const format = toNativeFormat(req.responseFormat);
    return {
      model: this.model,
      stream: true,
      ...(req.tools.length > 0 ? { tools: toNativeTools(req.tools) } : {}),
      ...(format !== undefined ? { format } : {}),
      options,
      keep_alive: wireKeepAlive(o.keepAlive),
    };
  }

  private refusal = (status: number, detail: string): ProviderError => localRunnerRefusal(status, detail, this.ctx);

  /**
   * Sends the chat request; resolves once a 2xx answer began, with its body, `release` (call it when done reading:
   * until then, cancelling `signal` ends the body) and `abandon` (destroys the connection). No answer within the idle
   * timeout (loading a model can take minutes) is a `stream_timeout`; a refusal names its remedy.
   */
  private async sendChat(body: Uint8Array, signal: AbortSignal): Promise<{ body: AsyncIterator<Uint8Array>; release: () => void; abandon: () => void }> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const release = () => signal.removeEventListener('abort', onAbort);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.idleTimeoutMs);
    let answer: StreamPostResponse;
    try {
      answer = await this.post({ url: this.chatUrl, headers: { accept: 'application/x-ndjson', 'content-type': 'application/json' }, body, signal: controller.signal });
    } catch (err) {
      release();
      if (signal.aborted) throw abortError(signal);
      if (timedOut) {
        throw safeProviderError(
          this.ctx,
          'stream_timeout',
          `the local runner at ${this.base} did not answer within ${Math.round(this.idleTimeoutMs / 1000)} s`,
          'retry; if it persists, check that the server is not overloaded',
        );
      }
      throw fromNetworkFailure(err, this.ctx);
    } finally {
      clearTimeout(timer);
    }
    try {
      const accepted = await acceptedAnswer(answer, this.ctx, ({ status, detail }) => this.refusal(status, detail));
      return { body: accepted.body, release, abandon: () => controller.abort() };
    } catch (refusal) {
      release();
      throw refusal;
    }
  }

  async *streamChat(req: ChatRequest): AsyncIterable<StreamChunk> {
    if (req.signal.aborted) throw abortError(req.signal);
    // Bytes: each history message is encoded once per run, not once per turn.
    const body = this.encoder.encode(this.chatFields(req), req.messages);
    const answer = await withRetries(
      () => this.sendChat(body, req.signal),
      isRetryable,
      {
        ...this.opts.retry,
        maxRetries: this.opts.maxRetries ?? this.opts.retry?.maxRetries,
        signal: req.signal,
        ...(req.onRateLimited ? { onRateLimited: req.onRateLimited } : {}),
      },
    );
    const reader = new NativeChunkReader();
    const lines = ndjsonLines({ [Symbol.asyncIterator]: () => answer.body })[Symbol.asyncIterator]();
    let finished = false;
    try {
      while (!reader.done) {
        const next = await this.nextLine(lines, req.signal);
        if (next.done) break;
        yield* reader.push(next.value);
      }
      yield* reader.finish();
      finished = reader.done;
    } catch (err) {
      if (req.signal.aborted) throw abortError(req.signal);
      if (err instanceof StreamedServerError) throw localRunnerRefusal(undefined, err.message, this.ctx);
      if (err instanceof ProviderError) throw err;
      throw safeProviderError(
        this.ctx,
        'provider_error',
        `the connection to the local runner at ${this.base} broke off in the middle of the answer (${err instanceof Error ? err.message : String(err)})`,
        'retry; if it persists, check the server log for a crash (for example running out of memory: ' + outOfMemoryRemedy(this.ctx) + ')',
      );
    } finally {
      // After the `done` line the body's end is read so the connection is kept; any other early stop closes it.
      await releaseBody(lines, finished && !req.signal.aborted, answer.abandon);
      answer.release();
    }
  }

  /** The next line, or a `stream_timeout` when none arrives within the idle timeout; aborts end the wait at once. */
  private nextLine(lines: AsyncIterator<string>, signal: AbortSignal): Promise<IteratorResult<string>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(
          safeProviderError(
            this.ctx,
            'stream_timeout',
            `no data from the local runner at ${this.base} (model "${this.model}") for ${Math.round(this.idleTimeoutMs / 1000)} s`,
            'a model running on the CPU can be very slow: enable the GPU or use a smaller model; then retry',
          ),
        );
      }, this.idleTimeoutMs);
      const onAbort = () => {
        cleanup();
        reject(abortError(signal));
      };
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      lines.next().then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (err: unknown) => {
          cleanup();
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  private async getJson(path: string, what: string, signal?: AbortSignal): Promise<unknown> {
    const response = await sendNative(
      this.fetchFn,
      { method: 'GET', url: `${this.base}${path}`, timeoutMs: STATUS_TIMEOUT_MS, ...(signal ? { signal } : {}) },
      this.ctx,
      this.refusal,
    );
    return readJsonBody(response, what, this.ctx);
  }

  /** Installed models (`GET /api/tags`), as `<name>:<tag>`; the configured one first when installed. */
  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const installed = parseTags(await this.getJson('/api/tags', 'the model list (/api/tags)', signal), this.ctx);
    const models: ModelInfo[] = installed.map((m) => ({
      id: m.name,
      available: true,
      ...(m.name === this.installedName(installed.map((i) => i.name)) ? { contextWindow: this.contextWindow } : {}),
      extra: m.extra,
    }));
    return models;
  }

  /** Running models (`GET /api/ps`) with how much of each sits in GPU memory. */
  async runningModels(signal?: AbortSignal): Promise<RunningModel[]> {
    return parsePs(await this.getJson('/api/ps', 'the running models (/api/ps)', signal), this.ctx);
  }

  /** The installed name the configured model resolves to (`llama3.2` means `llama3.2:latest`). */
  private installedName(names: readonly string[]): string | undefined {
    if (names.includes(this.model)) return this.model;
    if (!this.model.includes(':')) return names.find((n) => n === `${this.model}:latest`);
    return undefined;
  }

  async checkHealth(signal?: AbortSignal): Promise<HealthReport> {
    try {
      const names = (await this.listModels(signal)).map((m) => m.id);
      const running = await this.runningModels(signal);
      const installed = this.installedName(names);
      const runningText = describeRunning(running);
      if (!installed) {
        return {
          ok: false,
          message: `the local runner at ${this.base} is running, but model "${this.model}" is not installed (installed: ${names.join(', ') || 'none'}); ${runningText}`,
          remedy: pullRemedy(this.model),
        };
      }
      // numGpu 0 runs on the CPU on purpose: no GPU is expected, so none is reported missing.
      const cpuOnly = this.opts.numGpu === 0 ? [] : running.filter((m) => m.sizeVram === 0 && m.size > 0);
      if (cpuOnly.length > 0) {
        return {
          ok: true,
          message: `the local runner at ${this.base} is running with "${installed}" installed; ${runningText}. ${cpuOnly.map((m) => m.name).join(', ')} run on the CPU only (no GPU detected), so answers will be slow`,
          remedy: `${GPU_REMEDY}; or use a smaller model`,
        };
      }
      return { ok: true, message: `the local runner at ${this.base} is running with "${installed}" installed; ${runningText}` };
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      if (err instanceof ProviderError) {
        const remedy = err.code === 'connection_refused' ? startServerRemedy(this.base) : err.remedy;
        return { ok: false, message: err.message, remedy };
      }
      throw err;
    }
  }

  /** Unloads a model from memory now (`POST /api/generate` with `keep_alive: 0`). */
  async unload(model: string = this.model, signal?: AbortSignal): Promise<void> {
    const ctx = { ...this.ctx, model };
    await sendNative(
      this.fetchFn,
      { method: 'POST', url: `${this.base}/api/generate`, body: { model, keep_alive: 0 }, timeoutMs: STATUS_TIMEOUT_MS, ...(signal ? { signal } : {}) },
      ctx,
      (status, detail) => localRunnerRefusal(status, detail, ctx),
    );
  }
}
