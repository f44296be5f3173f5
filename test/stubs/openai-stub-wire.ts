/**
 * Builders for the chat-completions wire format used by the test stub server (test double only).
 * Each function turns one scripted reply into the exact JSON a real OpenAI-compatible server would send.
 */

export interface StubToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (lets tests send malformed arguments). */
  arguments: unknown;
  id?: string;
}

export interface StubUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

const TEXT_PIECE = 4;
const ARGUMENT_PIECE = 7;

/** Splits `s` into pieces of at most `size` characters (at least one piece, possibly empty). */
export function splitIntoPieces(s: string, size: number): string[] {
  if (s.length === 0) return [''];
  const pieces: string[] = [];
  for (let i = 0; i < s.length; i += size) pieces.push(s.slice(i, i + size));
  return pieces;
}

export function argumentsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

export interface ResolvedToolCall {
  id: string;
  name: string;
  argumentsText: string;
}

export function resolveToolCalls(calls: StubToolCall[] | undefined, nextId: () => string): ResolvedToolCall[] {
  return (calls ?? []).map((c) => ({ id: c.id ?? nextId(), name: c.name, argumentsText: argumentsText(c.arguments) }));
}

interface ChunkContext {
  id: string;
  model: string;
  created: number;
}

function chunk(ctx: ChunkContext, choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, choices, ...extra };
}

/** The ordered `chat.completion.chunk` objects of one streamed reply (without the final `[DONE]`). */
export function streamChunks(
  ctx: ChunkContext,
  text: string | undefined,
  calls: ResolvedToolCall[],
  usage: StubUsage | undefined,
  usageAsSeparateChunk: boolean,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  out.push(chunk(ctx, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
  if (text !== undefined && text.length > 0) {
    for (const piece of splitIntoPieces(text, TEXT_PIECE)) {
      out.push(chunk(ctx, [{ index: 0, delta: { content: piece }, finish_reason: null }]));
    }
  }
  calls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    out.push(chunk(ctx, [{ index: 0, delta: { tool_calls: [head] }, finish_reason: null }]));
    for (const piece of splitIntoPieces(call.argumentsText, ARGUMENT_PIECE)) {
      const part = { index, function: { arguments: piece } };
      out.push(chunk(ctx, [{ index: 0, delta: { tool_calls: [part] }, finish_reason: null }]));
    }
  });
  const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';
  const usageBody = usage ? wireUsage(usage) : undefined;
  const last = chunk(ctx, [{ index: 0, delta: {}, finish_reason: finishReason }]);
  if (usageBody && !usageAsSeparateChunk) last['usage'] = usageBody;
  out.push(last);
  if (usageBody && usageAsSeparateChunk) out.push(chunk(ctx, [], { usage: usageBody }));
  return out;
}

function wireUsage(u: StubUsage): Record<string, number> {
  return {
    prompt_tokens: u.prompt_tokens,
    completion_tokens: u.completion_tokens,
    total_tokens: u.prompt_tokens + u.completion_tokens,
  };
}

/** A complete non-streamed `chat.completion` object. */
export function completionBody(
  ctx: ChunkContext,
  text: string | undefined,
  calls: ResolvedToolCall[],
  usage: StubUsage | undefined,
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: text ?? (calls.length > 0 ? null : '') };
  if (calls.length > 0) {
    message['tool_calls'] = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.argumentsText },
    }));
  }
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    ...(usage ? { usage: wireUsage(usage) } : {}),
  };
}

/** The default error body for a scripted error status, in the usual `{ error: {...} }` shape. */
export function defaultErrorBody(status: number): Record<string, unknown> {
  return { error: { message: `stub: scripted error ${status}`, type: 'stub_error', code: null } };
}

export function modelsBody(ids: string[]): Record<string, unknown> {
  return { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'stub' })) };
}
