/**
 * Turns `chat.completion.chunk` objects into our StreamChunks: text deltas pass straight through,
 * tool-call deltas are accumulated by index and emitted complete at the end, then usage, then done.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError, type StreamChunk } from '../types';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

export class ChunkAccumulator {
  private readonly calls = new Map<number, PartialToolCall>();
  private finishReason: string | undefined;
  private usage: { inputTokens: number; outputTokens: number } | undefined;
  private generatedIds = 0;

  /** The outputs that can be yielded at once for this chunk (text deltas only). */
  push(chunk: ChatCompletionChunk): StreamChunk[] {
    const out: StreamChunk[] = [];
    if (chunk.usage) {
      this.usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue; // we ask for one choice
      const delta = choice.delta;
      if (delta?.content) out.push({ type: 'text', delta: delta.content });
      for (const call of delta?.tool_calls ?? []) this.addToolCallDelta(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return out;
  }

  private addToolCallDelta(delta: NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]): void {
    const index = delta.index ?? this.calls.size;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  /** Complete tool calls in index order, then usage (when the server sent it), then done. */
  finish(): StreamChunk[] {
    if (this.finishReason === undefined) {
      throw new ProviderError(
        'provider_error',
        'the response stream ended before the model finished its answer (no finish reason was sent)',
        'retry; if it persists, check the server logs for a crash or a dropped connection',
      );
    }
    const out: StreamChunk[] = [];
    const indexes = [...this.calls.keys()].sort((a, b) => a - b);
    for (const index of indexes) {
      const call = this.calls.get(index);
      if (!call) continue;
      if (!call.name) {
        throw new ProviderError(
          'provider_error',
          `the model sent a tool call (#${index}) without a function name`,
          'retry; if it persists, use a model with reliable tool calling',
        );
      }
      out.push({
        type: 'tool_call',
        id: call.id || `call_${++this.generatedIds}_${Date.now().toString(36)}`,
        name: call.name,
        arguments: call.arguments.trim() === '' ? '{}' : call.arguments,
      });
    }
    if (this.usage) out.push({ type: 'usage', ...this.usage });
    out.push({ type: 'done', finishReason: this.finishReason });
    return out;
  }
}
