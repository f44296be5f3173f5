import type { AgentStep, HistoryMessage, PromptContext, ResponseFormat, RunStatus } from '../../protocol';
import type { ChatToolSpec, ModelProvider } from '../providers/types';
import { toEventError } from './errors';
import type { ContextCompactor } from './context-compaction';
import type { EventDraft } from './host';
import { newId } from './ids';
import { RequestCancelledError, type PendingRequests } from './pending-requests';
import { executeToolCall, type RunScope, type ToolCallOutcome, type ToolCallRequest, type ToolExecutionDeps } from './tool-executor';

export interface RunRequest {
  runId: string;
  message: string;
  context?: PromptContext[];
  stepControl?: boolean;
  maxIterations: number;
  responseFormat?: ResponseFormat;
}

export interface LoopDeps {
  history: HistoryMessage[];
  systemPrompt: string;
  provider: ModelProvider;
  toolSpecs: ChatToolSpec[];
  tools: ToolExecutionDeps;
  pending: PendingRequests;
  emit(draft: EventDraft): void;
  signal: AbortSignal;
  /** Summarises older turns before a request that would pass the context window's threshold (when enabled). */
  compactor?: ContextCompactor;
  /** How one assistant message's tool calls run (default: one after another); the `parallel` strategy overlaps them. */
  runCalls?: CallRunner;
  /** Called after each tool step (the `reflexion` strategy's critique); a `stop` reason ends the run as stopped. */
  afterStep?(step: AgentStep, ids: { runId: string; turnId: string }): Promise<{ stop?: string } | void>;
}

/**
 * Runs the tool calls of one assistant message; `outcomes[i]` answers `calls[i]` (undefined: not run). `error` is what
 * stopped them (an abort): the loop still gives every call a result in the history, then rethrows it.
 */
export type CallRunner = (
  calls: ToolCallRequest[],
  tools: ToolExecutionDeps,
  scope: RunScope,
) => Promise<{ outcomes: Array<ToolCallOutcome | undefined>; error?: unknown }>;

/** The default runner: one call after another, stopping at the first abort. */
export const runCallsInOrder: CallRunner = async (calls, tools, scope) => {
  const outcomes: Array<ToolCallOutcome | undefined> = [];
  for (const call of calls) {
    try {
      outcomes.push(await executeToolCall(call, tools, scope));
    } catch (error) {
      return { outcomes, error };
    }
  }
  return { outcomes };
};

export interface RunOutcome {
  status: RunStatus;
  stoppedReason?: string;
  text: string;
  error?: { code: string; message: string };
}

export type StepDecision = { decision: 'continue' | 'stop'; reason?: string };

export function renderUserMessage(message: string, context: PromptContext[] | undefined): string {
  if (!context?.length) return message;
  const blocks = context.map((c) => {
    const where = c.startLine ? `${c.path}:${c.startLine}${c.endLine ? `-${c.endLine}` : ''}` : c.path;
    return c.text !== undefined ? `<${c.kind} path="${where}">\n${c.text}\n</${c.kind}>` : `<${c.kind} path="${where}"/>`;
  });
  return `${blocks.join('\n')}\n\n${message}`;
}

/**
 * The `react` loop: reason (stream the assistant message), act (run its tool calls), observe (results go into the
 * history for the next request), until a text-only answer, a stop decision, the iteration bound, an abort or an error.
 * Events: turn_start, message_*, tool_* (with permission/directory requests before a tool's work), step_end (with step
 * control only), turn_end.
 */
export async function runReactLoop(req: RunRequest, deps: LoopDeps): Promise<RunOutcome> {
  const { emit, signal, history } = deps;
  history.push({ role: 'user', content: renderUserMessage(req.message, req.context) });
  let lastText = '';
  let stepNumber = 0;
  for (let turnNumber = 1; ; turnNumber++) {
    const turnId = newId('turn');
    const ids = { runId: req.runId, turnId };
    emit({ type: 'turn_start', ...ids, turnNumber });
    const messageId = newId('msg');
    let text = '';
    let messageOpen = false;
    const calls: ToolCallRequest[] = [];
    try {
      if (deps.compactor) {
        await deps.compactor.beforeRequest(
          { history, provider: deps.provider, fixedChars: deps.systemPrompt.length + JSON.stringify(deps.toolSpecs).length, signal },
          (r) => emit({ type: 'context_compacted', runId: req.runId, messagesBefore: r.messagesBefore, messagesAfter: r.messagesAfter, tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter }),
        );
      }
      const stream = deps.provider.streamChat({
        messages: [{ role: 'system', content: deps.systemPrompt }, ...history],
        tools: deps.toolSpecs,
        ...(req.responseFormat ? { responseFormat: req.responseFormat } : {}),
        signal,
      });
      emit({ type: 'message_start', ...ids, messageId, role: 'assistant' });
      messageOpen = true;
      for await (const chunk of stream) {
        if (signal.aborted) break;
        if (chunk.type === 'text' && chunk.delta) {
          text += chunk.delta;
          emit({ type: 'message_update', ...ids, messageId, delta: chunk.delta });
        } else if (chunk.type === 'tool_call') {
          calls.push({ id: chunk.id || newId('call'), name: chunk.name, arguments: chunk.arguments });
        }
      }
      if (signal.aborted) throw new RequestCancelledError('aborted');
      emit({ type: 'message_end', ...ids, messageId, content: text });
      messageOpen = false;
      if (text) lastText = text;
      history.push({
        role: 'assistant',
        content: text,
        ...(calls.length ? { toolCalls: calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })) } : {}),
      });
      if (calls.length === 0) {
        emit({ type: 'turn_end', ...ids, reason: 'completed' });
        return { status: 'completed', text };
      }
      const step: AgentStep = { stepNumber: ++stepNumber, toolCalls: [], toolResults: [], ...(text ? { thought: text } : {}) };
      const ran = await (deps.runCalls ?? runCallsInOrder)(calls, deps.tools, { ...ids, signal });
      // Results in the calls' order; every call gets one, so the history stays valid for the next prompt.
      calls.forEach((call, i) => {
        const outcome = ran.outcomes[i];
        if (!outcome) {
          history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: 'not run: the user aborted the turn' });
          return;
        }
        history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.output });
        step.toolCalls.push({ tool: call.name, args: outcome.args });
        step.toolResults.push(
          outcome.success
            ? { tool: call.name, success: true, output: outcome.output }
            : { tool: call.name, success: false, error: outcome.output },
        );
      });
      if (ran.error !== undefined) throw ran.error;
      const after = await deps.afterStep?.(step, ids);
      if (after?.stop) {
        emit({ type: 'turn_end', ...ids, reason: 'stop_condition' });
        return { status: 'stopped', stoppedReason: after.stop, text: lastText };
      }
      // step_end belongs to runs with step control (spec 001 §6: "after each completed tool step in a run with
      // stopWhen"); other runs see the step in their tool events.
      if (req.stepControl) {
        emit({ type: 'step_end', ...ids, step, awaitingDecision: true });
        const answer = await deps.pending.wait<StepDecision>(`${req.runId}#${step.stepNumber}`, 'step', { runId: req.runId }, signal);
        if (answer.decision === 'stop') {
          emit({ type: 'turn_end', ...ids, reason: 'stop_condition' });
          return { status: 'stopped', stoppedReason: answer.reason ?? 'stop_condition', text: lastText };
        }
      }
      if (turnNumber >= req.maxIterations) {
        emit({ type: 'turn_end', ...ids, reason: 'max_iterations' });
        return { status: 'stopped', stoppedReason: 'max_iterations', text: lastText };
      }
      emit({ type: 'turn_end', ...ids, reason: 'tool_use' });
    } catch (e) {
      if (messageOpen) {
        emit({ type: 'message_end', ...ids, messageId, content: text });
        if (text && history.at(-1)?.role !== 'assistant') history.push({ role: 'assistant', content: text });
      }
      if (signal.aborted || (e instanceof RequestCancelledError && e.reason === 'aborted')) {
        emit({ type: 'turn_end', ...ids, reason: 'aborted' });
        return { status: 'aborted', text: text || lastText };
      }
      emit({ type: 'turn_end', ...ids, reason: 'error' });
      const error = toEventError(e);
      emit({
        type: 'error',
        runId: req.runId,
        code: error.code,
        error: error.message,
        ...(error.remedy ? { remedy: error.remedy } : {}),
        ...(error.fix ? { fix: error.fix } : {}),
      });
      return { status: 'error', text: text || lastText, error: { code: error.code, message: error.message } };
    }
  }
}
