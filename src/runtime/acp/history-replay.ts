/**
 * A saved conversation as the `session/update`s a client replays on `session/load`: the user's prompts, the
 * assistant's answers, and each tool call with its result (completed; a call whose result says it failed stays
 * completed too: the saved history does not keep success apart from the text).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { HistoryMessage } from '../../protocol';
import { shownOutput, toolKind, toolLocations, toolTitle } from './tool-calls';

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function historyUpdates(history: readonly HistoryMessage[], cwd: string): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  for (const m of history) {
    if (m.role === 'user' && m.content !== '') {
      updates.push({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: m.content } });
    } else if (m.role === 'assistant') {
      if (m.content !== '') updates.push({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: m.content } });
      for (const call of m.toolCalls ?? []) {
        const args = parseArgs(call.arguments);
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: toolTitle(call.name, args),
          kind: toolKind(call.name),
          status: 'completed',
          rawInput: args,
          locations: toolLocations(cwd, args),
        });
      }
    } else if (m.role === 'tool' && m.toolCallId) {
      updates.push({
        sessionUpdate: 'tool_call_update',
        toolCallId: m.toolCallId,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: shownOutput(m.content) } }],
      });
    }
  }
  return updates;
}
