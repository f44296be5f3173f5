/** Converts our history, tools and response format to the chat-completions wire shapes. */
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { HistoryMessage, ResponseFormat } from '../../../protocol';
import type { ChatToolSpec } from '../types';

export function toWireMessages(messages: readonly HistoryMessage[]): ChatCompletionMessageParam[] {
  return messages.map(toWireMessage);
}

/** One history message in the wire shape; `index` (its place in the history) names it in the error. */
export function toWireMessage(m: HistoryMessage, index: number): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return { role: 'user', content: m.content };
    case 'assistant': {
      const calls = m.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: m.content };
      return {
        role: 'assistant',
        content: m.content.length > 0 ? m.content : null,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
      };
    }
    case 'tool':
      if (!m.toolCallId) {
        throw new Error(`history message #${index} has role "tool" but no toolCallId; every tool result must name the call it answers`);
      }
      return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  }
}

export function toWireTools(tools: readonly ChatToolSpec[]): ChatCompletionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

export type WireResponseFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict: false } };

export function toWireResponseFormat(format: ResponseFormat | undefined): WireResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema, strict: false } };
}
