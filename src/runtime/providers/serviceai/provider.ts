/**
 * serviceai: the hosted service. Chat goes through the chat-completions core; this layer adds the plan-aware
 * catalog, the client-side input limit (checked before anything is sent), and plan hints on refusals.
 */
import { abortError } from '../retry';
import { ProviderError, type ChatRequest, type HealthReport, type ModelInfo, type ModelProvider, type StreamChunk } from '../types';
import type { ErrorContext } from '../errors';
import { fetchCatalog, pickerModels } from './catalog';
import { checkInputLimit } from './limits';
import { SERVICEAI_MODEL_LIMITS } from './models';
import { outsideSomePlan, planHint } from './plans';

export interface ServiceAiProviderParts {
  /** The chat-completions provider for the chosen model. */
  chat: ModelProvider;
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  errorContext: ErrorContext;
}

/** The model with the largest input context, suggested when a prompt does not fit. */
function largestChatModel(): { model: string; contextWindow: number } | undefined {
  let best: { model: string; contextWindow: number } | undefined;
  for (const [model, limits] of Object.entries(SERVICEAI_MODEL_LIMITS)) {
    if (limits.maxOutput === undefined) continue; // decisions-only
    if (!best || limits.contextWindow > best.contextWindow) best = { model, contextWindow: limits.contextWindow };
  }
  return best;
}

export class ServiceAiProvider implements ModelProvider {
  readonly id = 'serviceai' as const;
  readonly model: string;
  readonly contextWindow?: number;

  constructor(private readonly parts: ServiceAiProviderParts) {
    this.model = parts.chat.model;
    if (parts.chat.contextWindow !== undefined) this.contextWindow = parts.chat.contextWindow;
  }

  async *streamChat(req: ChatRequest): AsyncIterable<StreamChunk> {
    if (req.signal.aborted) throw abortError(req.signal);
    if (this.contextWindow !== undefined) {
      const larger = largestChatModel();
      checkInputLimit(this.model, this.contextWindow, req, larger && larger.model !== this.model ? larger : undefined);
    }
    try {
      yield* this.parts.chat.streamChat(req);
    } catch (err) {
      throw this.withPlanHint(err);
    }
  }

  /**
   * A refusal of a model some plan leaves out (403, or 404 for the model) names the plan that includes it. A model
   * every plan includes (fantail) cannot be refused for the plan, so its refusal keeps the verify-the-key remedy.
   */
  private withPlanHint(err: unknown): unknown {
    if (!(err instanceof ProviderError) || err.code === 'not_in_plan') return err;
    const hint = outsideSomePlan(this.model) ? planHint(this.model) : undefined;
    const planRefusal = err.status === 403 || (err.code === 'model_not_available' && err.status === 404);
    if (!hint || !planRefusal) return err;
    const keyCheck = err.status === 403 ? '; if your plan includes it, verify the API key (serviceai.apiKey / SERVICE_API_KEY)' : '';
    return new ProviderError(
      err.code,
      err.message,
      `"${this.model}" may not be in your plan: it is ${hint}. Upgrade the plan, or choose a model your catalog lists (\`/model\` in a session)${keyCheck}`,
      err.status,
      err.retryAfterMs,
    );
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const entries = await fetchCatalog(
      { baseUrl: this.parts.baseUrl, apiKey: this.parts.apiKey, fetch: this.parts.fetch, ...(signal ? { signal } : {}) },
      this.parts.errorContext,
    );
    return pickerModels(entries);
  }

  async checkHealth(signal?: AbortSignal): Promise<HealthReport> {
    const where = `serviceai at ${this.parts.baseUrl}`;
    let models: ModelInfo[];
    try {
      models = await this.listModels(signal);
    } catch (err) {
      if (signal?.aborted) throw abortError(signal);
      if (err instanceof ProviderError) return { ok: false, message: err.message, remedy: err.remedy };
      throw err;
    }
    const yours = models.filter((m) => m.extra !== undefined).map((m) => (m.available ? m.id : `${m.id} (${m.reason ?? 'unavailable'})`));
    const current = models.find((m) => m.id === this.model);
    const summary = `${where} is reachable; your plan's catalog: ${yours.join(', ') || 'empty'}`;
    if (!current || current.extra === undefined) {
      const hint = outsideSomePlan(this.model) ? planHint(this.model) : undefined;
      return {
        ok: false,
        message: `${summary}; the selected model "${this.model}" is not in it`,
        remedy: hint ? `"${this.model}" is ${hint}; upgrade the plan or choose a listed model` : 'choose a model the catalog lists',
      };
    }
    if (!current.available) return { ok: false, message: `${summary}; "${this.model}" ${current.reason ?? 'cannot run in chat'}`, remedy: 'choose fantail or moa for chat' };
    return { ok: true, message: summary };
  }
}
