import type { HistoryMessage } from '../../protocol/records';

/**
 * Checks prior messages a host gives with `prompt` (`history`) before they start a conversation: no system message,
 * every `tool` message answers a tool call of an earlier assistant message (once), every tool call is answered before
 * the next user or assistant message and by the end. Returns the problem (naming the message index), or undefined.
 */
export function seedHistoryProblem(messages: readonly HistoryMessage[]): string | undefined {
  const open = new Set<string>();
  const seen = new Set<string>();
  for (const [i, m] of messages.entries()) {
    const at = `history[${i}]`;
    if (m.role === 'system') return `${at}: system messages come from the runtime; give the agent's instructions instead`;
    if (m.role === 'tool') {
      if (!m.toolCallId) return `${at}: a tool message needs the toolCallId of the call it answers`;
      if (!open.has(m.toolCallId)) return `${at}: no earlier assistant message has an unanswered tool call "${m.toolCallId}"`;
      open.delete(m.toolCallId);
      continue;
    }
    if (open.size > 0) return `${at}: tool call(s) ${[...open].join(', ')} have no tool message answering them before this ${m.role} message`;
    if (m.toolCalls && m.role !== 'assistant') return `${at}: only assistant messages carry toolCalls`;
    for (const call of m.toolCalls ?? []) {
      if (seen.has(call.id)) return `${at}: tool call id "${call.id}" is used twice`;
      seen.add(call.id);
      open.add(call.id);
    }
  }
  if (open.size > 0) return `the last tool call(s) ${[...open].join(', ')} have no tool message answering them`;
  return undefined;
}
