/**
 * A ModelProvider for any endpoint speaking the OpenAI-compatible chat-completions wire format. The chat request goes
 * over node:http (http/stream-post.ts) with our own SSE body reader (sse-batches.ts), retries, idle timeout and error
 * mapping; the `openai` npm package serves the model list and the health probe.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { fromHttpRefusal, fromNetworkFailure, isRetryable, slowRemedy, toProviderError, type ErrorContext } from '../errors';
import { acceptedAnswer, fetchStreamPost, nodeStreamPost, releaseBody, type StreamPost, type StreamPostResponse } from '../http/stream-post';
import { RUNTIME_VERSION } from '../../version';
import { abortError, withRetries, type RetryPolicy } from '../retry';
import type { ChatRequest, HealthReport, ModelInfo, ModelProvider, ProviderId, StreamChunk } from '../types';
import { ProviderError } from '../types';
import { ChunkAccumulator } from './chunk-accumulator';
import { SseBatchReader } from './sse-batches';
import { SecretSet } from '../../debug/redact';
import { toWireMessage, toWireMessages, toWireResponseFormat, toWireTools } from './wire';
import { RequestEncoder } from '../http/request-encoder';

export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
const NO_KEY_PLACEHOLDER = 'no-key-configured';
/** Where the `openai` package sends requests without a base URL (OPENAI_BASE_URL overrides it, as for the package). */
const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAICompatibleOptions {
  id: ProviderId;
  model: string;
  /** Base URL of the API (ending in /v1 or the deployment path). Omitted: the `openai` package's default endpoint. */
  baseURL?: string;
  /** Sent as `Authorization: Bearer <apiKey>`. Without apiKey and getToken no Authorization header is sent. */
  apiKey?: string;
  /** A bearer token source called before each request (takes precedence over apiKey). */
  getToken?: () => Promise<string>;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  organization?: string;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  /** Extra request-body fields (e.g. top_k, repeat_penalty, seed, reasoning_effort). */
  extraBody?: Record<string, unknown>;
  contextWindow?: number;
  /** No chunk (or response) within this time → ProviderError `stream_timeout`. Default 120 s. */
  idleTimeoutMs?: number;
  /** Retries of rate-limited and 5xx requests before any output (default 3). */
  maxRetries?: number;
  /** Backoff tuning (delays); `maxRetries` above wins over `retry.maxRetries`. */
  retry?: RetryPolicy;
  /** Ask for `stream_options: { include_usage: true }` (only where the server accepts it). Default false. */
  includeUsage?: boolean;
  /** Further values to keep out of error messages (client secrets, tokens); a SecretSet also covers values added later. */
  secrets?: string[] | SecretSet;
  /** Maps one entry of GET /models to a ModelInfo (e.g. to mark catalog models unavailable). */
  describeModel?: (entry: { id: string } & Record<string, unknown>) => ModelInfo;
  /** `configured`: the endpoint serves one fixed model (a deployment), so listModels reports it without a request. */
  modelListing?: 'endpoint' | 'configured';
  fetch?: typeof fetch;
}

/** The secrets of a provider: the caller's set (kept live) plus the API key and header values. */
function secretSetOf(opts: OpenAICompatibleOptions): SecretSet {
  const set = opts.secrets instanceof SecretSet ? opts.secrets : new SecretSet(opts.secrets ?? []);
  set.add(opts.apiKey);
  for (const value of Object.values(opts.headers ?? {})) set.add(value);
  return set;
}

/** Text deltas that arrived in one network read travel as one delta (the reader saw them at the same moment). */
function joinTextDeltas(chunks: StreamChunk[]): StreamChunk[] {
  const out: StreamChunk[] = [];
  for (const c of chunks) {
    const last = out.at(-1);
    if (c.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', delta: last.delta + c.delta };
    else out.push(c);
  }
  return out;
}

export function createOpenAICompatibleProvider(opts: OpenAICompatibleOptions): ModelProvider {
  return new OpenAICompatibleProvider(opts);
}

class OpenAICompatibleProvider implements ModelProvider {
  readonly id: ProviderId;
  readonly model: string;
  readonly contextWindow?: number;
  private openaiClient: OpenAI | undefined;
  private readonly baseURL: string;
  private readonly errorContext: ErrorContext;
  private readonly idleTimeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly encoder = new RequestEncoder({ toWire: toWireMessage });
  private readonly post: StreamPost;
  private readonly chatUrl: URL;

  constructor(private readonly opts: OpenAICompatibleOptions) {
    this.id = opts.id;
    this.model = opts.model;
    if (opts.contextWindow !== undefined) this.contextWindow = opts.contextWindow;
    this.idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.retryPolicy = { ...opts.retry, maxRetries: opts.maxRetries ?? opts.retry?.maxRetries };
    this.baseURL = opts.baseURL ?? (process.env.OPENAI_BASE_URL?.trim() || OPENAI_DEFAULT_BASE_URL);
    this.errorContext = {
      provider: opts.id,
      model: opts.model,
      endpoint: this.baseURL,
      secrets: secretSetOf(opts),
    };
    this.post = opts.fetch ? fetchStreamPost(opts.fetch) : nodeStreamPost;
    this.chatUrl = chatCompletionsUrl(this.baseURL, opts.query);
  }

  /** The `openai` package's client, for the model list and the health probe; the package loads on first use. */
  private get client(): OpenAI {
    if (this.openaiClient) return this.openaiClient;
    const o = this.opts;
    const hasBearer = o.apiKey !== undefined || o.getToken !== undefined;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a chat request does not need the package
    const { OpenAI: OpenAIClient } = require('openai') as typeof import('openai');
    this.openaiClient = new OpenAIClient({
      // The package insists on a credential; without one, this placeholder is removed again by the null header below.
      apiKey: o.getToken ?? o.apiKey ?? NO_KEY_PLACEHOLDER,
      adminAPIKey: null,
      organization: o.organization ?? null,
      project: null,
      webhookSecret: null,
      baseURL: this.baseURL,
      // Without a bearer credential, say so explicitly: the package then sends no Authorization header.
      defaultHeaders: { ...(hasBearer ? {} : { Authorization: null }), ...o.headers },
      ...(o.query ? { defaultQuery: o.query } : {}),
      maxRetries: 0,
      timeout: 24 * 60 * 60 * 1000, // the idle timeout governs; a long answer may legitimately stream for minutes
      logLevel: 'off',
      ...(o.fetch ? { fetch: o.fetch } : {}),
    });
    return this.openaiClient;
  }

  /** The headers of a chat request: JSON both ways, the bearer credential, the organization, then the configured ones. */
  private async requestHeaders(): Promise<Record<string, string>> {
    const o = this.opts;
    const bearer = o.getToken ? await o.getToken() : o.apiKey;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': `agentcli/${RUNTIME_VERSION}`,
      ...(bearer !== undefined ? { authorization: `Bearer ${bearer}` } : {}),
      ...(o.organization !== undefined ? { 'openai-organization': o.organization } : {}),
    };
    // Header names are case-insensitive: a configured `Authorization` replaces ours rather than going out twice.
    for (const [name, value] of Object.entries(o.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  /** Sends the chat request; a refusal (not 2xx) becomes the ProviderError of its symptom, a transport failure too. */
  private async sendChat(body: Uint8Array, signal: AbortSignal): Promise<StreamPostResponse> {
    const headers = await this.requestHeaders();
    let answer: StreamPostResponse;
    try {
      answer = await this.post({ url: this.chatUrl, headers, body, signal });
    } catch (err) {
      throw signal.aborted ? err : fromNetworkFailure(err, this.errorContext);
    }
    return acceptedAnswer(answer, this.errorContext, (refusal) => fromHttpRefusal(refusal, this.errorContext));
  }

  /** The request body without the streaming fields. */
  private requestBody(req: Pick<ChatRequest, 'messages' | 'tools' | 'responseFormat' | 'toolChoice'>): ChatCompletionCreateParamsBase {
    const o = this.opts;
    const responseFormat = toWireResponseFormat(req.responseFormat);
    return {
      ...o.extraBody,
      model: this.model,
      messages: toWireMessages(req.messages),
      ...(req.tools.length > 0 ? { tools: toWireTools(req.tools) } : {}),
      ...(req.toolChoice && req.tools.length > 0
        ? { tool_choice: req.toolChoice === 'none' ? ('none' as const) : { type: 'function' as const, function: { name: req.toolChoice.name } } }
        : {}),
      ...(responseFormat ? { response_format: responseFormat } : {}),
      ...(o.maxTokens !== undefined ? { max_tokens: o.maxTokens } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
      ...(o.topP !== undefined ? { top_p: o.topP } : {}),
    };
  }

  async *streamChat(req: ChatRequest): AsyncIterable<StreamChunk> {
    if (req.signal.aborted) throw abortError(req.signal);
    const { messages: _messages, ...fields }: ChatCompletionCreateParamsStreaming = {
      ...this.requestBody({ ...req, messages: [] }),
      stream: true,
      ...(this.opts.includeUsage ? { stream_options: { include_usage: true } } : {}),
    };
    // Bytes, not an object: the package sends them as they are (with the content type given here).
    const body = this.encoder.encode(fields, req.messages);
    const controller = new AbortController();
    const onAbort = () => controller.abort(req.signal.reason);
    req.signal.addEventListener('abort', onAbort, { once: true });
    // One timer for the whole stream, restarted per chunk with refresh(): a new timer per chunk costs more than the
    // chunk itself on a fast stream.
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    let timedOut = false;
    let waitingFor = 'the response';
    const armIdle = (what: string) => {
      waitingFor = what;
      if (idleTimer === undefined) {
        idleTimer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, this.idleTimeoutMs);
      } else idleTimer.refresh();
    };
    const disarmIdle = () => {
      clearTimeout(idleTimer);
      idleTimer = undefined;
    };
    let responseBody: AsyncIterator<Uint8Array> | undefined;
    /** The answer was read to its end marker and handed over whole. */
    let finished = false;
    const fail = (err: unknown): Error => {
      if (req.signal.aborted) return abortError(req.signal);
      if (timedOut) return this.timeoutError(waitingFor);
      return toProviderError(err, this.errorContext);
    };
    try {
      const response = await withRetries(
        async () => {
          armIdle('the response');
          try {
            return await this.sendChat(body, controller.signal);
          } catch (err) {
            throw fail(err);
          } finally {
            disarmIdle();
          }
        },
        isRetryable,
        { ...this.retryPolicy, signal: req.signal, ...(req.onRateLimited ? { onRateLimited: req.onRateLimited } : {}) },
      );
      responseBody = response.body;
      const events = new SseBatchReader();
      const accumulator = new ChunkAccumulator();
      let received = 0;
      for (;;) {
        armIdle(received === 0 ? 'the first chunk' : 'the next chunk');
        let read: IteratorResult<Uint8Array>;
        try {
          read = await response.body.next();
        } catch (err) {
          if (req.signal.aborted) break;
          throw this.lostConnectionError(fail(err));
        }
        let chunks: OpenAI.Chat.Completions.ChatCompletionChunk[];
        try {
          chunks = read.done ? events.end() : events.push(read.value as Uint8Array);
        } catch (err) {
          throw err instanceof ProviderError ? err : fail(err);
        }
        received += chunks.length;
        yield* joinTextDeltas(chunks.flatMap((c) => accumulator.push(c)));
        if (read.done || events.done) break;
      }
      if (req.signal.aborted) throw abortError(req.signal);
      if (timedOut) throw this.timeoutError(waitingFor);
      yield* accumulator.finish();
      finished = true;
    } finally {
      disarmIdle();
      req.signal.removeEventListener('abort', onAbort);
      // After [DONE] the body's end is read so the connection is kept; any other early stop closes it. After the
      // body's own end the socket is already back in the keep-alive pool and this does nothing.
      if (responseBody) await releaseBody(responseBody, finished && !req.signal.aborted, () => controller.abort());
      controller.abort();
    }
  }

  /** A network failure after the answer began: the server dropped the connection (it is not simply down). */
  private lostConnectionError(err: Error): Error {
    if (!(err instanceof ProviderError) || (err.code !== 'connection_refused' && err.code !== 'provider_error')) return err;
    return new ProviderError(
      'provider_error',
      `the connection to ${this.id} at ${this.errorContext.endpoint} broke off in the middle of the answer (${err.message})`,
      'retry; if it persists, check the server logs for a crash or restart',
    );
  }

  private timeoutError(waitingFor: string): ProviderError {
    const seconds = Math.round(this.idleTimeoutMs / 100) / 10;
    return new ProviderError(
      'stream_timeout',
      `no data from ${this.id} at ${this.errorContext.endpoint} (model "${this.model}") for ${seconds} s while waiting for ${waitingFor}`,
      slowRemedy(this.id),
    );
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    if (this.opts.modelListing === 'configured') {
      return [{ id: this.model, available: true, ...(this.contextWindow ? { contextWindow: this.contextWindow } : {}) }];
    }
    return withRetries(
      async () => {
        try {
          const models: ModelInfo[] = [];
          for await (const entry of this.client.models.list(signal ? { signal } : undefined)) {
            models.push(this.describe(entry as unknown as { id: string } & Record<string, unknown>));
          }
          return models;
        } catch (err) {
          if (signal?.aborted) throw abortError(signal);
          throw toProviderError(err, this.errorContext);
        }
      },
      isRetryable,
      { ...this.retryPolicy, ...(signal ? { signal } : {}) },
    );
  }

  private describe(entry: { id: string } & Record<string, unknown>): ModelInfo {
    if (this.opts.describeModel) return this.opts.describeModel(entry);
    const { id, ...rest } = entry;
    const info: ModelInfo = { id: String(id), available: true, extra: rest };
    if (id === this.model && this.contextWindow !== undefined) info.contextWindow = this.contextWindow;
    return info;
  }

  async checkHealth(signal?: AbortSignal): Promise<HealthReport> {
    const where = `${this.id} at ${this.errorContext.endpoint}`;
    try {
      if (this.opts.modelListing === 'configured') return await this.probeChat(where, signal);
      const models = await this.listModels(signal);
      const names = models.map((m) => m.id);
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
      return { ok: true, message: `${where} is reachable; models: ${shown || 'none listed'}` };
    } catch (err) {
      if (signal?.aborted) throw err;
      const mapped = toProviderError(err, this.errorContext);
      return { ok: false, message: mapped.message, remedy: mapped.remedy };
    }
  }

  /** For endpoints without a model list: one chat request limited to a single output token. */
  private async probeChat(where: string, signal?: AbortSignal): Promise<HealthReport> {
    const probe = { role: 'user' as const, content: 'Reply with OK.' };
    const body = { ...this.requestBody({ messages: [probe], tools: [] }), max_tokens: 1, stream: false as const };
    try {
      await this.client.chat.completions.create(body, signal ? { signal } : {});
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      throw toProviderError(err, this.errorContext);
    }
    return { ok: true, message: `${where} answered a test request with model "${this.model}"` };
  }
}

/** `<base>/chat/completions`, with the configured query (e.g. `api-version`) as the whole query string. */
function chatCompletionsUrl(baseURL: string, query: Record<string, string> | undefined): URL {
  const url = new URL(`${baseURL}${baseURL.endsWith('/') ? '' : '/'}chat/completions`);
  const entries = Object.entries(query ?? {});
  if (entries.length > 0) url.search = entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return url;
}
