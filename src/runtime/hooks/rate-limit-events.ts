/** A run's provider that reports each throttled request (HTTP 429) as a `rate_limited` event. */
import type { EventDraft } from '../agent/host';
import type { ChatRequest, ModelProvider } from '../providers/types';

export function reportingRateLimits(provider: ModelProvider, runId: string, emit: (draft: EventDraft) => void): ModelProvider {
  const streamChat = (req: ChatRequest) =>
    provider.streamChat({
      ...req,
      onRateLimited: (info) => {
        req.onRateLimited?.(info);
        emit({ type: 'rate_limited', runId, provider: provider.id, retryAfterMs: info.retryAfterMs, attempt: info.attempt, willRetry: info.willRetry });
      },
    });
  return new Proxy(provider, {
    get(target, prop) {
      if (prop === 'streamChat') return streamChat;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
