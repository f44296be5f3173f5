/**
 * Reads the local runner's streamed answer: one JSON object per line (NDJSON). Text deltas pass straight
 * through; tool calls arrive complete (arguments as objects) and are turned into JSON text; the last line
 * (`done: true`) carries the finish reason and token counts.
 */
import { ProviderError, type StreamChunk } from '../types';

interface NativeLine {
  message?: { content?: unknown; tool_calls?: unknown };
  done?: unknown;
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
  error?: unknown;
}

/** Splits a byte stream into lines (UTF-8 safe across chunk borders); a last line without newline counts. */
export async function* ndjsonLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const bytes of body) {
    buffered += decoder.decode(bytes, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line.length > 0) yield line;
      newline = buffered.indexOf('\n');
    }
  }
  buffered += decoder.decode();
  if (buffered.trim().length > 0) yield buffered.trim();
}

/** An error line inside the stream (`{"error": "..."}`): the server failed after it started answering. */
export class StreamedServerError extends Error {}

export class NativeChunkReader {
  private toolCalls = 0;
  private finished: StreamChunk[] | undefined;
  private readonly idPrefix = `call_${Date.now().toString(36)}`;

  get done(): boolean {
    return this.finished !== undefined;
  }

  /** The chunks one line yields; after the `done` line, `finish()` returns usage and done. */
  push(raw: string): StreamChunk[] {
    let line: NativeLine;
    try {
      line = JSON.parse(raw) as NativeLine;
    } catch {
      throw new ProviderError(
        'provider_error',
        `the local runner sent a line that is not JSON: ${raw.slice(0, 200)}`,
        'check that localrunner.baseUrl points at the local runner (its native API, not an OpenAI-compatible one)',
      );
    }
    if (typeof line.error === 'string') throw new StreamedServerError(line.error);
    const out: StreamChunk[] = [];
    const content = line.message?.content;
    if (typeof content === 'string' && content.length > 0) out.push({ type: 'text', delta: content });
    if (Array.isArray(line.message?.tool_calls)) {
      for (const call of line.message.tool_calls as unknown[]) out.push(this.toolCall(call));
    }
    if (line.done === true) {
      const finish: StreamChunk[] = [];
      const input = typeof line.prompt_eval_count === 'number' ? line.prompt_eval_count : undefined;
      const output = typeof line.eval_count === 'number' ? line.eval_count : undefined;
      if (input !== undefined || output !== undefined) {
        finish.push({ type: 'usage', inputTokens: input ?? 0, outputTokens: output ?? 0 });
      }
      const reason = this.toolCalls > 0 ? 'tool_calls' : typeof line.done_reason === 'string' ? line.done_reason : 'stop';
      finish.push({ type: 'done', finishReason: reason });
      this.finished = finish;
    }
    return out;
  }

  private toolCall(raw: unknown): StreamChunk {
    const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const name = call.function?.name;
    if (typeof name !== 'string' || name.length === 0) {
      throw new ProviderError(
        'provider_error',
        `the model sent a tool call without a function name: ${JSON.stringify(raw).slice(0, 200)}`,
        'retry; if it persists, use a model with reliable tool calling',
      );
    }
    const args = call.function?.arguments;
    const text = typeof args === 'string' ? args : JSON.stringify(args ?? {});
    this.toolCalls++;
    const id = typeof call.id === 'string' && call.id.length > 0 ? call.id : `${this.idPrefix}_${this.toolCalls}`;
    return { type: 'tool_call', id, name, arguments: text };
  }

  /** Usage and done, once the `done` line was read; a stream that ended without it is an error. */
  finish(): StreamChunk[] {
    if (!this.finished) {
      throw new ProviderError(
        'provider_error',
        'the local runner ended its answer before it said it was done',
        'retry; if it persists, check the server log for a crash (for example running out of memory)',
      );
    }
    return this.finished;
  }
}
