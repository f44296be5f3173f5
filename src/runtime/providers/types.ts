import type { ErrorFix, EventErrorCode, HistoryMessage, ResponseFormat } from '../../protocol';

import type { ProviderId } from '../../protocol/records';

export type { ProviderId };

/** A tool as offered to the model: name, description and JSON schema of its arguments. */
export interface ChatToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Which tool the model must call: a named one (`submit_plan`), or none at all. */
export type ChatToolChoice = { name: string } | 'none';

export interface ChatRequest {
  /** Full conversation, system prompt first. */
  messages: HistoryMessage[];
  tools: ChatToolSpec[];
  /** Forces a tool call (providers whose wire has no such field ignore it; the loop checks what came back). */
  toolChoice?: ChatToolChoice;
  responseFormat?: ResponseFormat;
  signal: AbortSignal;
  /** Told each time the provider throttles the request (HTTP 429), before the wait (see retry.ts). */
  onRateLimited?: (info: RateLimitInfo) => void;
}

/** A throttled attempt: how long the runtime waits before the next one, or `willRetry: false` when it gives up. */
export interface RateLimitInfo {
  attempt: number;
  retryAfterMs: number;
  willRetry: boolean;
}

/** What a provider yields while streaming one model response. */
export type StreamChunk =
  | { type: 'text'; delta: string }
  /** A complete tool call (deltas already accumulated); `arguments` is the raw JSON text from the model. */
  | { type: 'tool_call'; id: string; name: string; arguments: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'done'; finishReason: string };

export interface ModelInfo {
  id: string;
  /** False when the chat cannot run it (e.g. not in the plan, or decisions-only); `reason` says why. */
  available: boolean;
  reason?: string;
  contextWindow?: number;
  maxOutput?: number;
  /** Unknown catalog fields, kept opaque. */
  extra?: Record<string, unknown>;
}

export interface HealthReport {
  ok: boolean;
  message: string;
  remedy?: string;
}

export interface ModelProvider {
  readonly id: ProviderId;
  readonly model: string;
  /** Input context window of the model when known (used for client-side limit checks and usage). */
  readonly contextWindow?: number;
  streamChat(req: ChatRequest): AsyncIterable<StreamChunk>;
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
  checkHealth(signal?: AbortSignal): Promise<HealthReport>;
}

/** A provider failure mapped to a spec 000 §7 symptom, with the remedy the user should apply. */
export class ProviderError extends Error {
  constructor(
    readonly code: EventErrorCode,
    message: string,
    readonly remedy: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    /** The setting that fixes it, for hosts that word it in their own terms (the remedy keeps the terminal wording). */
    readonly fix?: ErrorFix,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The same error, naming the setting that fixes it. */
export function withFix(err: ProviderError, fix: ErrorFix | undefined): ProviderError {
  return fix === undefined ? err : new ProviderError(err.code, err.message, err.remedy, err.status, err.retryAfterMs, fix);
}
