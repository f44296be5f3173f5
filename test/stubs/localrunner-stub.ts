/**
 * A scripted local model runner for tests (a test double; never imported by src/). Real HTTP on 127.0.0.1 with
 * the runner's native paths: `GET /api/tags`, `GET /api/ps`, `POST /api/chat` streaming NDJSON (one JSON object
 * per line, tool calls with object arguments, a final `done` line with token counts), `POST /api/generate`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson as sendJsonReply, startHttpStub } from './http-stub-base';

export interface RunnerReply {
  /** Streamed as several content lines. */
  text?: string;
  /** Sent complete in one line, arguments as objects (as the runner does). */
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  /** Answer with this HTTP status and `{ error }` body instead. */
  status?: number;
  error?: string;
  /** Send the text, then an `{ error }` line (a failure after the answer began). */
  errorLineAfterText?: string;
  /** Stop after the text without a `done` line (the server died). */
  cutOff?: boolean;
  promptEvalCount?: number;
  evalCount?: number;
}

export interface RunnerModel {
  name: string;
  /** Bytes; with sizeVram this drives /api/ps. */
  size?: number;
  sizeVram?: number;
}

export interface RunnerRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape, inspected by tests
}

export interface LocalRunnerStub {
  origin: string;
  requests: RunnerRequest[];
  enqueue(...replies: RunnerReply[]): void;
  /** Installed models (`/api/tags`). */
  setInstalled(names: string[]): void;
  /** Running models (`/api/ps`). */
  setRunning(models: RunnerModel[]): void;
  close(): Promise<void>;
}

const TEXT_PIECE = 5;

/** The local runner answers JSON with a charset. */
const sendJson = (res: ServerResponse, status: number, body: unknown): void =>
  sendJsonReply(res, status, body, { 'content-type': 'application/json; charset=utf-8' });

export async function startLocalRunnerStub(): Promise<LocalRunnerStub> {
  const queue: RunnerReply[] = [];
  const requests: RunnerRequest[] = [];
  let installed = ['llama3.2:latest'];
  let running: RunnerModel[] = [];

  function chat(body: Record<string, unknown>, res: ServerResponse): void {
    const model = typeof body['model'] === 'string' ? body['model'] : '';
    const reply = queue.shift();
    if (!reply) {
      sendJson(res, 500, { error: `stub: no scripted reply for request #${requests.length}` });
      return;
    }
    if (reply.status !== undefined) {
      sendJson(res, reply.status, { error: reply.error ?? `stub: scripted error ${reply.status}` });
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const line = (obj: Record<string, unknown>) => res.write(`${JSON.stringify({ model, created_at: new Date().toISOString(), ...obj })}\n`);
    const text = reply.text ?? '';
    for (let i = 0; i < text.length; i += TEXT_PIECE) {
      line({ message: { role: 'assistant', content: text.slice(i, i + TEXT_PIECE) }, done: false });
    }
    if (reply.toolCalls && reply.toolCalls.length > 0) {
      line({
        message: { role: 'assistant', content: '', tool_calls: reply.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) },
        done: false,
      });
    }
    if (reply.errorLineAfterText) {
      res.end(`${JSON.stringify({ error: reply.errorLineAfterText })}\n`);
      return;
    }
    if (reply.cutOff) {
      res.end();
      return;
    }
    const done = {
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      total_duration: 1000,
      prompt_eval_count: reply.promptEvalCount ?? 11,
      eval_count: reply.evalCount ?? 7,
    };
    // The last line without a trailing newline: readers must not lose it.
    res.end(JSON.stringify({ model, created_at: new Date().toISOString(), ...done }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body: unknown = undefined;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: { ...req.headers }, body });
    const obj = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (req.method === 'GET' && url.pathname === '/api/tags') {
      sendJson(res, 200, {
        models: installed.map((name) => ({ name, model: name, size: 2_000_000_000, digest: 'sha256:stub', details: { format: 'gguf', family: 'stub' } })),
      });
    } else if (req.method === 'GET' && url.pathname === '/api/ps') {
      sendJson(res, 200, {
        models: running.map((m) => ({ name: m.name, model: m.name, size: m.size ?? 0, size_vram: m.sizeVram ?? 0, expires_at: '2099-01-01T00:00:00Z' })),
      });
    } else if (req.method === 'POST' && url.pathname === '/api/chat') {
      const model = obj['model'];
      if (typeof model !== 'string' || !installed.includes(model.includes(':') ? model : `${model}:latest`)) {
        sendJson(res, 404, { error: `model "${String(model)}" not found, try pulling it first` });
        return;
      }
      chat(obj, res);
    } else if (req.method === 'POST' && url.pathname === '/api/generate') {
      const model = obj['model'];
      if (typeof model !== 'string' || !installed.includes(model)) {
        sendJson(res, 404, { error: `model "${String(model)}" not found, try pulling it first` });
        return;
      }
      if (obj['keep_alive'] === 0) running = running.filter((m) => m.name !== model);
      sendJson(res, 200, { model, created_at: new Date().toISOString(), response: '', done: true, done_reason: 'unload' });
    } else {
      sendJson(res, 404, { error: `stub: no route for ${req.method ?? ''} ${url.pathname}` });
    }
  }

  const { origin, close } = await startHttpStub(handle, { errorBody: (message) => ({ error: message }) });
  return {
    origin,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    setInstalled: (names) => void (installed = [...names]),
    setRunning: (models) => void (running = [...models]),
    close,
  };
}
