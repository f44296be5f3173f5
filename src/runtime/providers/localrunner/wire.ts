/**
 * The local runner's native chat API (`POST /api/chat`): messages, tools, options and keep-alive.
 * Tool-call arguments travel as JSON objects here, not as JSON text.
 */
import type { HistoryMessage, ResponseFormat } from '../../../protocol';
import type { MessageWireFormat } from '../http/request-encoder';
import type { ChatToolSpec } from '../types';

export interface NativeToolCall {
  id?: string;
  function: { name: string; arguments: Record<string, unknown>; index?: number };
}

export interface NativeMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: NativeToolCall[];
  /** Names the tool a `tool` message answers. */
  tool_name?: string;
  tool_call_id?: string;
}

/** Generation options sent with every request, so the server never falls back to its own (smaller) defaults. */
export interface NativeOptions {
  num_ctx: number;
  temperature: number;
  num_gpu?: number;
  num_thread?: number;
  num_batch?: number;
}

/** A chat request's fields besides `messages` (the history, encoded by RequestEncoder with nativeMessageFormat). */
export interface NativeChatFields {
  model: string;
  stream: true;
  tools?: Array<{ type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
  format?: 'json' | Record<string, unknown>;
  options: NativeOptions;
  keep_alive: string | number;
}

/** `"0"` and `"-1"` go as numbers (unload at once / keep forever), durations such as `"5m"` as given. */
export function wireKeepAlive(value: string | number): string | number {
  if (value === '0' || value === 0) return 0;
  if (value === '-1' || value === -1) return -1;
  return value;
}

/** Parses tool-call arguments (JSON text from the history) back into the object the native API expects. */
function argumentsObject(text: string, name: string, index: number): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  // The model produced arguments that are not an object; keep them visible to it rather than dropping them.
  return { _unparsed_arguments: text, _note: `history message #${index}: arguments of "${name}" were not a JSON object` };
}

/** The local runner's message forms: a tool result names the tool it answers, which its call (earlier) holds. */
export const nativeMessageFormat: MessageWireFormat = {
  toWire: (m, index, toolName) => toNativeMessage(m, index, toolName),
  contextReader() {
    const toolNames = new Map<string, string>();
    return (m) => {
      if (m.role === 'assistant') for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
      return m.role === 'tool' && m.toolCallId ? toolNames.get(m.toolCallId) : undefined;
    };
  },
};

/** One history message in the native shape; `toolName` names the tool a tool result answers (when its call is known). */
function toNativeMessage(m: HistoryMessage, index: number, toolName: string | undefined): NativeMessage {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'assistant': {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content,
        tool_calls: calls.map((c) => ({ id: c.id, function: { name: c.name, arguments: argumentsObject(c.arguments, c.name, index) } })),
      };
    }
    case 'tool': {
      if (!m.toolCallId) {
        throw new Error(`history message #${index} has role "tool" but no toolCallId; every tool result must name the call it answers`);
      }
      return { role: 'tool', content: m.content, tool_call_id: m.toolCallId, ...(toolName ? { tool_name: toolName } : {}) };
    }
  }
}

export function toNativeTools(tools: readonly ChatToolSpec[]): NativeChatFields['tools'] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

export function toNativeFormat(format: ResponseFormat | undefined): NativeChatFields['format'] {
  if (!format) return undefined;
  return format.type === 'json_object' ? 'json' : format.schema;
}
