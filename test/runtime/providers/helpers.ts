/** Shared helpers for provider tests: collecting a stream, config building, a closed port. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ConfigSchema, type Config, type ConfigInput } from '../../../src/runtime/config/schema';
import type { HistoryMessage } from '../../../src/protocol';
import { ProviderError, type ChatRequest, type StreamChunk } from '../../../src/runtime/providers/types';

export async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/** Runs the stream to its end and returns the error it failed with (fails the test when it does not fail). */
export async function failureOf(stream: AsyncIterable<StreamChunk>): Promise<unknown> {
  try {
    await collect(stream);
  } catch (err) {
    return err;
  }
  throw new Error('expected the stream to fail, but it completed');
}

export async function providerErrorOf(stream: AsyncIterable<StreamChunk>): Promise<ProviderError> {
  const err = await failureOf(stream);
  if (!(err instanceof ProviderError)) throw new Error(`expected a ProviderError, got ${String(err)}`);
  return err;
}

export function textOf(chunks: StreamChunk[]): string {
  return chunks.map((c) => (c.type === 'text' ? c.delta : '')).join('');
}

export function config(input: ConfigInput = {}): Config {
  return ConfigSchema.parse(input);
}

export function chat(messages: HistoryMessage[] = [{ role: 'user', content: 'hello' }], signal?: AbortSignal): ChatRequest {
  return { messages, tools: [], signal: signal ?? new AbortController().signal };
}

/** A localhost port that nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Fast retries for tests: real backoff code, millisecond delays. */
export const FAST_RETRY = { retry: { baseDelayMs: 1, maxDelayMs: 5 } };
