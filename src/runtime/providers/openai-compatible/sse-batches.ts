/**
 * Reads a chat-completions server-sent-events body and yields, per network read, the chunk objects it completed.
 * The `openai` package still makes the request (auth, URL, HTTP errors); only the body is read here, because its own
 * reader walks each event through several async generators and byte scans, which on a fast stream costs more CPU
 * than the agent's whole turn. Batching by read also lets tokens that arrived together travel as one delta.
 *
 * SSE as the servers send it: lines end in \n, \r\n or \r; `data:` lines (one optional space after the colon) make up
 * an event's payload, joined with \n; a blank line ends the event; lines starting with `:` are comments; `[DONE]`
 * ends the stream. An `error` object in a payload is the server reporting a failure mid-stream.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { ProviderError } from '../types';

export class SseBatchReader {
  private readonly decoder = new TextDecoder();
  private pending = '';
  private data: string[] = [];
  private skipLeadingNewline = false;
  /** `[DONE]` was seen: the rest of the body is ignored. */
  done = false;

  constructor(private readonly headers?: Headers) {}

  /** The chunk objects completed by this piece of the body, in order. */
  push(bytes: Uint8Array): ChatCompletionChunk[] {
    return this.lines(this.decoder.decode(bytes, { stream: true }));
  }

  /** What the body's end completes (an event the server left without its final blank line still counts). */
  end(): ChatCompletionChunk[] {
    return this.lines(`${this.decoder.decode()}\n\n`);
  }

  private lines(text: string): ChatCompletionChunk[] {
    const out: ChatCompletionChunk[] = [];
    const buf = this.pending + text;
    let start = 0;
    if (this.skipLeadingNewline && buf.length > 0) {
      if (buf[0] === '\n') start = 1; // the \n of a \r\n split across two reads
      this.skipLeadingNewline = false;
    }
    const lineBreak = /\r\n|\r|\n/g;
    while (!this.done) {
      lineBreak.lastIndex = start;
      const m = lineBreak.exec(buf);
      if (m === null) break;
      this.line(buf.slice(start, m.index), out);
      start = m.index + m[0].length;
      if (m[0] === '\r' && start === buf.length) this.skipLeadingNewline = true;
    }
    this.pending = this.done ? '' : buf.slice(start);
    return out;
  }

  private line(line: string, out: ChatCompletionChunk[]): void {
    if (line === '') {
      this.dispatch(out);
      return;
    }
    if (line.startsWith('data:')) this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    // `event:`, `id:`, `retry:` and `:` comments carry nothing a chat completion uses.
  }

  private dispatch(out: ChatCompletionChunk[]): void {
    if (this.data.length === 0) return;
    const payload = this.data.join('\n');
    this.data = [];
    if (payload.startsWith('[DONE]')) {
      this.done = true;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      throw new ProviderError(
        'provider_error',
        `the server sent a stream event that is not JSON: ${payload.slice(0, 120)}`,
        'check that the base URL points at an OpenAI-compatible chat-completions endpoint',
      );
    }
    if (value !== null && typeof value === 'object' && 'error' in value && value.error) {
      // The package's error class (loaded only now) carries the server's error object to the usual mapping.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { APIError } = require('openai') as typeof import('openai');
      throw new APIError(undefined, value.error as object, undefined, this.headers ?? new Headers());
    }
    out.push(value as ChatCompletionChunk);
  }
}
