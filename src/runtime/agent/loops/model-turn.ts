/**
 * One model request of a strategy's own (a plan request, a re-plan, the final summary) with the same events as a react
 * turn: turn_start, message_start/update/end. The caller ends the turn (turn_end) once it knows why it ended.
 */
import type { HistoryMessage, ResponseFormat } from '../../../protocol';
import type { ChatToolChoice, ChatToolSpec } from '../../providers/types';
import { newId } from '../ids';
import { RequestCancelledError } from '../pending-requests';
import type { LoopDeps } from '../react-loop';
import type { ToolCallRequest } from '../tool-executor';

export interface TurnRequest {
  runId: string;
  turnNumber: number;
  tools: ChatToolSpec[];
  toolChoice?: ChatToolChoice;
  /** Sent after the history for this request only (an instruction the history does not keep). */
  instruction?: string;
  /** The run's structured-output format (the final summary of a plan answers in it). */
  responseFormat?: ResponseFormat;
}

export interface TurnReply {
  turnId: string;
  text: string;
  calls: ToolCallRequest[];
}

/**
 * Streams one reply. On abort (RequestCancelledError) or a provider error (rethrown) the message and the turn are
 * already closed; on success the caller emits turn_end.
 */
export async function requestTurn(deps: LoopDeps, req: TurnRequest): Promise<TurnReply> {
  const turnId = newId('turn');
  const ids = { runId: req.runId, turnId };
  deps.emit({ type: 'turn_start', ...ids, turnNumber: req.turnNumber });
  const messages: HistoryMessage[] = [{ role: 'system', content: deps.systemPrompt }, ...deps.history];
  if (req.instruction) messages.push({ role: 'system', content: req.instruction });
  const messageId = newId('msg');
  let text = '';
  const calls: ToolCallRequest[] = [];
  deps.emit({ type: 'message_start', ...ids, messageId, role: 'assistant' });
  try {
    const stream = deps.provider.streamChat({
      messages,
      tools: req.tools,
      ...(req.toolChoice && req.tools.length > 0 ? { toolChoice: req.toolChoice } : {}),
      ...(req.responseFormat ? { responseFormat: req.responseFormat } : {}),
      signal: deps.signal,
    });
    for await (const chunk of stream) {
      if (deps.signal.aborted) break;
      if (chunk.type === 'text' && chunk.delta) {
        text += chunk.delta;
        deps.emit({ type: 'message_update', ...ids, messageId, delta: chunk.delta });
      } else if (chunk.type === 'tool_call') {
        calls.push({ id: chunk.id || newId('call'), name: chunk.name, arguments: chunk.arguments });
      }
    }
    if (deps.signal.aborted) throw new RequestCancelledError('aborted');
  } catch (e) {
    deps.emit({ type: 'message_end', ...ids, messageId, content: text });
    const aborted = deps.signal.aborted || (e instanceof RequestCancelledError && e.reason === 'aborted');
    deps.emit({ type: 'turn_end', ...ids, reason: aborted ? 'aborted' : 'error' });
    throw aborted ? new RequestCancelledError('aborted') : e;
  }
  deps.emit({ type: 'message_end', ...ids, messageId, content: text });
  return { turnId, text, calls };
}

/** A request without events or history changes (the reflexion critique): the reply's text. */
export async function requestText(deps: LoopDeps, instruction: string): Promise<string> {
  const stream = deps.provider.streamChat({
    messages: [{ role: 'system', content: deps.systemPrompt }, ...deps.history, { role: 'user', content: instruction }],
    tools: [],
    signal: deps.signal,
  });
  let text = '';
  for await (const chunk of stream) {
    if (deps.signal.aborted) throw new RequestCancelledError('aborted');
    if (chunk.type === 'text') text += chunk.delta;
  }
  if (deps.signal.aborted) throw new RequestCancelledError('aborted');
  return text.trim();
}
