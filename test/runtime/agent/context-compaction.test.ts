import assert from 'node:assert/strict';
import type { HistoryMessage } from '../../../src/protocol/records';
import { ContextCompactor, estimateTokens, SUMMARY_PREFIX } from '../../../src/runtime/agent/context-compaction';
import { ProviderError, type ChatRequest, type ModelProvider } from '../../../src/runtime/providers/types';

function fakeProvider(contextWindow: number, summaries: string[]): ModelProvider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: 'ggufserver',
    model: 'm',
    contextWindow,
    requests,
    async *streamChat(req: ChatRequest) {
      requests.push(req);
      yield { type: 'text' as const, delta: summaries.shift() ?? '' };
    },
    listModels: async () => [],
    checkHealth: async () => ({ ok: true, message: '' }),
  } as unknown as ModelProvider & { requests: ChatRequest[] };
}

const signal = new AbortController().signal;
const big = (n: number) => 'x'.repeat(n);

describe('context compaction', () => {
  it('estimates four characters a token, tool call arguments included', () => {
    assert.equal(estimateTokens([{ role: 'user', content: big(40) }], 0), 10);
    assert.equal(estimateTokens([{ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'abcd', arguments: big(36) }] }], 0), 10);
  });

  it('does nothing when off or under the threshold', async () => {
    const history: HistoryMessage[] = [{ role: 'user', content: big(4000) }, { role: 'assistant', content: 'a' }, { role: 'user', content: 'q' }];
    const provider = fakeProvider(1000, ['S']);
    await new ContextCompactor(false, 0.8).beforeRequest({ history, provider, fixedChars: 0, signal }, () => assert.fail('off'));
    await new ContextCompactor(true, 0.8).beforeRequest({ history, provider: fakeProvider(10_000, []), fixedChars: 0, signal }, () => assert.fail('under'));
    assert.equal(history.length, 3);
  });

  it('replaces the turns before the current prompt with a summary pair, once per prompt', async () => {
    const history: HistoryMessage[] = [
      { role: 'user', content: big(4000) },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'read_file', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c', toolName: 'read_file', content: big(2000) },
      { role: 'assistant', content: 'done' },
      { role: 'user', content: 'next' },
    ];
    const provider = fakeProvider(1000, ['the summary']);
    const c = new ContextCompactor(true, 0.8);
    c.newPrompt();
    const seen: number[] = [];
    await c.beforeRequest({ history, provider, fixedChars: 0, signal }, (r) => seen.push(r.removed));
    assert.deepEqual(seen, [4]);
    assert.deepEqual(history.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.ok(history[0]!.content.startsWith(SUMMARY_PREFIX) && history[0]!.content.endsWith('the summary'));
    assert.equal(history[2]!.content, 'next');
    // The current prompt grows past the window within the same prompt: no second compaction, context_too_long.
    history.push({ role: 'assistant', content: big(5000) });
    await assert.rejects(
      c.beforeRequest({ history, provider, fixedChars: 0, signal }, () => assert.fail('twice')),
      (e: unknown) => e instanceof ProviderError && e.code === 'context_too_long' && /start a new conversation/.test(e.remedy),
    );
    assert.equal(provider.requests.length, 1);
  });

  it('/compact summarises everything, and not again until something new was said', async () => {
    const history: HistoryMessage[] = [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }];
    const c = new ContextCompactor(false, 0.8);
    const provider = fakeProvider(1000, ['S1']);
    const r = await c.compact({ history, provider, fixedChars: 0, signal }, false);
    assert.equal(r?.removed, 2);
    assert.equal(history.length, 2);
    assert.equal(await c.compact({ history, provider, fixedChars: 0, signal }, false), undefined);
    assert.equal(provider.requests.length, 1);
  });

  it('setContextCompact wins over later settings; the threshold follows them', () => {
    const c = new ContextCompactor(false, 0.8);
    c.configure({ enabled: true, threshold: 0.5 });
    assert.deepEqual([c.enabled, c.threshold], [true, 0.5]);
    c.set(false);
    c.configure({ enabled: true, threshold: 0.6 });
    assert.deepEqual([c.enabled, c.threshold], [false, 0.6]);
  });
});
