/**
 * A scripted OpenAI-compatible chat server for tests (a test double; never imported by src/).
 * Real HTTP on 127.0.0.1, real chat-completions wire format, SSE streaming.
 *
 * Library use:  const stub = await startOpenAIStub({ replies: [{ text: 'hi' }] });
 * Process use:  node --import tsx test/stubs/openai-stub.ts --port 0 --script replies.json
 *               (prints `listening <base url>`; the script is a JSON array of StubReply, or
 *               `{ "replies": StubReply[], "models": string[] }`)
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startHttpStub } from './http-stub-base';
import {
  completionBody,
  defaultErrorBody,
  modelsBody,
  resolveToolCalls,
  streamChunks,
  type StubToolCall,
  type StubUsage,
} from './openai-stub-wire';

export interface StubReply {
  /** Streamed as several small content deltas. */
  text?: string;
  /** Streamed as tool-call deltas: id + name first, then arguments split over several chunks; index per call. */
  toolCalls?: StubToolCall[];
  /** Delay between SSE chunks (to test abort mid-stream). */
  chunkDelayMs?: number;
  /** Error replies: status (>= 400), body (default `{ error: { message } }`) and extra headers (e.g. retry-after). */
  status?: number;
  errorBody?: unknown;
  headers?: Record<string, string>;
  /**
   * Never finish (idle timeout / abort tests): send headers and the first chunk plus any text and tool-call
   * deltas of this reply, but no finish reason and no [DONE]; the connection stays open until the client leaves.
   */
  hang?: boolean;
  usage?: StubUsage;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape, inspected by tests
  rawBodyBytes: number;
  /** `performance.now()` when the request line and headers arrived, before its body was read. */
  receivedAt: number;
  /** `performance.now()` when the reply was completely written (unset while it streams or when it hangs). */
  answeredAt?: number;
}

export interface OpenAIStub {
  /** Base URL ending in /v1. */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  enqueue(...replies: StubReply[]): void;
  setModels(ids: string[]): void;
  close(): Promise<void>;
}

/** What the stub does with a request before any scripted reply: answer it as chat or models, or refuse it. */
export type StubRoute =
  | { kind: 'chat' }
  | { kind: 'models' }
  | { kind: 'refuse'; status: number; body: unknown; headers?: Record<string, string> };

export interface StubOptions {
  replies?: StubReply[];
  fallback?: (req: RecordedRequest) => StubReply;
  port?: number;
  /** When set, every request needs `Authorization: Bearer <apiKey>` (else 401 invalid_api_key, as OpenAI answers). */
  apiKey?: string;
  /** Replaces the OpenAI routing (`POST /v1/chat/completions`, `GET /v1/models`), e.g. for a cloudhub deployment. */
  route?: (req: RecordedRequest) => StubRoute;
}

/**
 * The routes of an OpenAI-compatible server (the gguf model server, the vendor API): exactly
 * `POST /v1/chat/completions` and `GET /v1/models`; with `apiKey`, a Bearer key is required.
 */
export function openAIRoute(apiKey?: string): (req: RecordedRequest) => StubRoute {
  return (req) => {
    const chatRoute = req.method === 'POST' && req.path === '/v1/chat/completions';
    if (!chatRoute && !(req.method === 'GET' && req.path === '/v1/models')) {
      const message = `stub: no route for ${req.method} ${req.path}`;
      return { kind: 'refuse', status: 404, body: { error: { message, type: 'not_found', code: 'stub_no_route' } } };
    }
    if (apiKey !== undefined && req.headers['authorization'] !== `Bearer ${apiKey}`) {
      const message = 'Incorrect API key provided. You can find your API key in your account settings.';
      return { kind: 'refuse', status: 401, body: { error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } } };
    }
    return { kind: chatRoute ? 'chat' : 'models' };
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function record(req: IncomingMessage, raw: Buffer, receivedAt: number): RecordedRequest {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const text = raw.toString('utf8');
  let body: unknown = undefined;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    headers: { ...req.headers },
    query: Object.fromEntries(url.searchParams.entries()),
    body,
    rawBodyBytes: raw.length,
    receivedAt,
  };
}


/** How many frames at the end carry the finish reason or the usage (held back by `hang`). */
function finishFrames(frames: Record<string, unknown>[]): number {
  let n = 0;
  for (let i = frames.length - 1; i > 0; i--) {
    const choices = frames[i]?.['choices'] as { finish_reason?: unknown }[] | undefined;
    if (choices?.length === 0 || choices?.[0]?.finish_reason) n++;
    else break;
  }
  return n;
}

export async function startOpenAIStub(opts: StubOptions = {}): Promise<OpenAIStub> {
  const queue: StubReply[] = [...(opts.replies ?? [])];
  const requests: RecordedRequest[] = [];
  let models = ['stub-model'];
  let completionCounter = 0;
  let toolCallCounter = 0;
  const nextToolCallId = () => `call_stub_${++toolCallCounter}`;

  async function answerChat(recorded: RecordedRequest, res: ServerResponse): Promise<void> {
    const reply = queue.shift() ?? opts.fallback?.(recorded);
    if (!reply) {
      const message = `stub: no scripted reply for request #${requests.length}`;
      sendJson(res, 500, { error: { message, type: 'stub_error', code: 'stub_no_reply' } });
      return;
    }
    if (reply.status !== undefined && reply.status >= 400) {
      sendJson(res, reply.status, reply.errorBody ?? defaultErrorBody(reply.status), reply.headers);
      return;
    }
    const body = (typeof recorded.body === 'object' && recorded.body !== null ? recorded.body : {}) as Record<
      string,
      unknown
    >;
    const ctx = {
      id: `chatcmpl-stub-${++completionCounter}`,
      model: typeof body['model'] === 'string' ? body['model'] : 'stub-model',
      created: Math.floor(Date.now() / 1000),
    };
    const calls = resolveToolCalls(reply.toolCalls, nextToolCallId);
    if (body['stream'] !== true) {
      sendJson(res, reply.status ?? 200, completionBody(ctx, reply.text, calls, reply.usage), reply.headers);
      return;
    }
    const streamOptions = body['stream_options'] as { include_usage?: unknown } | undefined;
    const frames = streamChunks(ctx, reply.text, calls, reply.usage, streamOptions?.include_usage === true);
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    res.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...reply.headers,
    });
    const sent = reply.hang ? frames.slice(0, frames.length - finishFrames(frames)) : frames;
    for (const [i, frame] of sent.entries()) {
      if (i > 0 && reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
      if (gone) return;
      res.write(`data: ${JSON.stringify(frame)}\n\n`);
    }
    if (!gone && !reply.hang) res.end('data: [DONE]\n\n');
  }

  const route = opts.route ?? openAIRoute(opts.apiKey);
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    const recorded = record(req, await readBody(req), receivedAt);
    requests.push(recorded);
    const routed = route(recorded);
    if (routed.kind === 'chat') await answerChat(recorded, res);
    else if (routed.kind === 'models') sendJson(res, 200, modelsBody(models));
    else sendJson(res, routed.status, routed.body, routed.headers);
    if (res.writableEnded) recorded.answeredAt = performance.now();
  }

  const { origin, close } = await startHttpStub(handle, opts.port === undefined ? {} : { port: opts.port });
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setModels: (ids) => void (models = [...ids]),
    close,
  };
}

/** One tool-calling turn followed by a final text answer: the two replies a simple agent loop consumes. */
export function scriptedToolTurn(tool: string, args: unknown, thenText: string): StubReply[] {
  return [{ toolCalls: [{ name: tool, arguments: args }] }, { text: thenText }];
}

function parseScript(file: string): { replies: StubReply[]; models?: string[] } {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (Array.isArray(parsed)) return { replies: parsed as StubReply[] };
  if (typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { replies?: unknown }).replies)) {
    return parsed as { replies: StubReply[]; models?: string[] };
  }
  throw new Error(`${file}: expected a JSON array of replies or { "replies": [...], "models": [...] }`);
}

async function main(argv: string[]): Promise<void> {
  let port = 0;
  let script: { replies: StubReply[]; models?: string[] } = { replies: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = argv[i + 1];
    if (arg === '--port' && value !== undefined) {
      port = Number(value);
      i++;
    } else if (arg === '--script' && value !== undefined) {
      script = parseScript(value);
      i++;
    } else {
      throw new Error(`unknown argument ${arg ?? ''}; usage: openai-stub.ts [--port N] [--script replies.json]`);
    }
  }
  const stub = await startOpenAIStub({ replies: script.replies, port });
  if (script.models) stub.setModels(script.models);
  process.stdout.write(`listening ${stub.url}\n`);
  const stop = () => void stub.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const runAsProcess = typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module;
if (runAsProcess) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`openai-stub: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
