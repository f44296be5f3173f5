/**
 * An in-process model for fast tests of the agent core: each request takes the next scripted reply (text and/or
 * tool calls) and is recorded, so a test checks what the loop sent without a server or a process.
 */
import type { HistoryMessage } from '../../../src/protocol';
import type { ChatRequest, ModelProvider, StreamChunk } from '../../../src/runtime/providers/types';

export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
}

export interface ScriptedProvider extends ModelProvider {
  requests: Array<{ messages: HistoryMessage[]; tools: string[] }>;
}

export function scriptedProvider(replies: ScriptedReply[]): ScriptedProvider {
  const queue = [...replies];
  const requests: ScriptedProvider['requests'] = [];
  let calls = 0;
  return {
    id: 'ggufserver',
    model: 'scripted',
    requests,
    async *streamChat(req: ChatRequest): AsyncIterable<StreamChunk> {
      requests.push({ messages: req.messages.map((m) => ({ ...m })), tools: req.tools.map((t) => t.name) });
      const reply = queue.shift() ?? { text: 'done' };
      if (reply.text) {
        for (const piece of reply.text.match(/.{1,8}/gs) ?? []) yield { type: 'text', delta: piece };
      }
      for (const call of reply.toolCalls ?? []) {
        yield { type: 'tool_call', id: `call_${++calls}`, name: call.name, arguments: JSON.stringify(call.arguments) };
      }
      yield { type: 'done', finishReason: reply.toolCalls?.length ? 'tool_calls' : 'stop' };
    },
    listModels: async () => [{ id: 'scripted', available: true }],
    checkHealth: async () => ({ ok: true, message: 'scripted model' }),
  };
}
