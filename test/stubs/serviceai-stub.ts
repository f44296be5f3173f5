/**
 * A scripted hosted service for tests (a test double; never imported by src/). Real HTTP on 127.0.0.1:
 * `GET /v1/models` (the catalog of the key's plan, entries with extra fields), `POST /v1/chat/completions`
 * (the chat-completions wire format, streamed as SSE via the shared wire helpers) and `POST /v1/decisions`.
 * Every request needs `Authorization: Bearer <key>` of a key registered with a plan.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, sendJson, startHttpStub } from './http-stub-base';
import { resolveToolCalls, streamChunks, type StubToolCall } from './openai-stub-wire';

export type StubPlan = 'Free' | 'Lite' | 'Pro' | 'Pro+' | 'Max' | 'Team' | 'Enterprise';

/** What each plan's catalog lists (the stub follows the plan list of spec §2.1, which has weka from Lite). */
const PLAN_MODELS: Record<StubPlan, string[]> = {
  Free: ['fantail'],
  Lite: ['fantail', 'weka', 'thirdparty-1', 'thirdparty-2'],
  Pro: ['fantail', 'weka', 'moa', 'thirdparty-1', 'thirdparty-2', 'thirdparty-3'],
  'Pro+': ['fantail', 'weka', 'moa', 'thirdparty-1', 'thirdparty-2', 'thirdparty-3', 'thirdparty-4', 'thirdparty-5'],
  Max: ['fantail', 'weka', 'moa', 'thirdparty-1', 'thirdparty-2', 'thirdparty-3', 'thirdparty-4', 'thirdparty-5'],
  Team: ['fantail', 'weka', 'moa', 'thirdparty-1', 'thirdparty-2', 'thirdparty-3', 'thirdparty-4', 'thirdparty-5'],
  Enterprise: ['fantail', 'weka', 'moa', 'thirdparty-1', 'thirdparty-2', 'thirdparty-3', 'thirdparty-4', 'thirdparty-5'],
};

export interface ChatReply {
  text?: string;
  toolCalls?: StubToolCall[];
  status?: number;
  errorBody?: unknown;
}

export interface ServiceRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- parsed JSON of any shape, inspected by tests
}

export interface ServiceAiStub {
  origin: string;
  requests: ServiceRequest[];
  /** Registers an API key with its plan. */
  addKey(key: string, plan: StubPlan): void;
  enqueueChat(...replies: ChatReply[]): void;
  /** Raw decision bodies to answer with, in order (else a well-formed answer is computed). */
  enqueueDecision(...bodies: unknown[]): void;
  close(): Promise<void>;
}


function apiError(res: ServerResponse, status: number, message: string, code: string): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', code } });
}

function catalogEntry(id: string): Record<string, unknown> {
  return {
    id,
    object: 'model',
    owned_by: id.startsWith('thirdparty') ? 'partner' : 'service',
    ...(id === 'weka' ? { lifecycle: 'public-preview', surfaces: ['api', 'sdk', 'console'] } : {}),
    capabilities: { tools: id !== 'weka', reasoning: id === 'moa' },
  };
}

/** A well-formed answer to a decision request. */
function computedDecision(body: Record<string, unknown>): Record<string, unknown> {
  const kind = body['kind'];
  if (kind === 'noul') return { kind, answer: 'yes', probabilities: { yes: 0.72, no: 0.28 } };
  if (kind === 'choice') {
    const options = (body['options'] as string[] | undefined) ?? [];
    const rest = options.length > 1 ? 0.4 / (options.length - 1) : 0;
    return { kind, answer: options[0], probabilities: Object.fromEntries(options.map((o, i) => [o, i === 0 ? 0.6 : rest])) };
  }
  const scale = (body['scale'] as { min: number; max: number } | undefined) ?? { min: 1, max: 5 };
  const n = scale.max - scale.min + 1;
  const probabilities = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(scale.min + i), 1 / n]));
  return { kind, answer: scale.max, probabilities };
}

export async function startServiceAiStub(): Promise<ServiceAiStub> {
  const keys = new Map<string, StubPlan>();
  const chatQueue: ChatReply[] = [];
  const decisionQueue: unknown[] = [];
  const requests: ServiceRequest[] = [];
  let counter = 0;

  function chat(body: Record<string, unknown>, plan: StubPlan, res: ServerResponse): void {
    const model = String(body['model'] ?? '');
    if (model === 'weka') return apiError(res, 400, 'weka is not accepted by the chat-completions contract; use /v1/decisions', 'unsupported_model');
    if (!PLAN_MODELS[plan].includes(model)) return apiError(res, 403, `model ${model} is not included in the ${plan} plan`, 'model_not_in_plan');
    const reply = chatQueue.shift();
    if (!reply) return apiError(res, 500, `stub: no scripted chat reply for request #${requests.length}`, 'stub_no_reply');
    if (reply.status !== undefined) {
      sendJson(res, reply.status, reply.errorBody ?? { error: { message: `stub: scripted error ${reply.status}`, code: null } });
      return;
    }
    const ctx = { id: `chatcmpl-svc-${++counter}`, model, created: Math.floor(Date.now() / 1000) };
    const calls = resolveToolCalls(reply.toolCalls, () => `call_svc_${++counter}`);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of streamChunks(ctx, reply.text, calls, undefined, false)) res.write(`data: ${JSON.stringify(frame)}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  function decisions(body: Record<string, unknown>, plan: StubPlan, res: ServerResponse): void {
    if (body['model'] !== 'weka') return apiError(res, 400, `decisions need model "weka" (got ${JSON.stringify(body['model'])})`, 'invalid_model');
    if (!PLAN_MODELS[plan].includes('weka')) return apiError(res, 403, `weka is not included in the ${plan} plan`, 'model_not_in_plan');
    sendJson(res, 200, decisionQueue.length > 0 ? decisionQueue.shift() : computedDecision(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    let body: unknown;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: { ...req.headers }, body });
    const auth = req.headers.authorization ?? '';
    const plan = auth.startsWith('Bearer ') ? keys.get(auth.slice('Bearer '.length)) : undefined;
    if (!plan) {
      // Echo the presented key back, as careless servers do: clients must redact it.
      return apiError(res, 401, `invalid API key: ${auth.slice('Bearer '.length) || 'none'}`, 'invalid_api_key');
    }
    const obj = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: PLAN_MODELS[plan].map(catalogEntry) });
    } else if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
      chat(obj, plan, res);
    } else if (req.method === 'POST' && url.pathname === '/v1/decisions') {
      decisions(obj, plan, res);
    } else {
      apiError(res, 404, `stub: no route for ${req.method ?? ''} ${url.pathname}`, 'not_found');
    }
  }

  const { origin, close } = await startHttpStub(handle);
  return {
    origin,
    requests,
    addKey: (key, plan) => void keys.set(key, plan),
    enqueueChat: (...replies) => void chatQueue.push(...replies),
    enqueueDecision: (...bodies) => void decisionQueue.push(...bodies),
    close,
  };
}
