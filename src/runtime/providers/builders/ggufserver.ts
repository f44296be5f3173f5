/** ggufserver: a local server for gguf models with an OpenAI-compatible interface under `{baseUrl}/v1`; no key. */
import type { GgufServerSettings } from '../../config/schema';
import type { OpenAICompatibleOptions } from '../openai-compatible/provider';
import { trimTrailingSlash } from './config-errors';

/** The model name is a display name only: the server answers with whatever model it has loaded. */
export const GGUFSERVER_DEFAULT_MODEL = 'local-gguf';
const MAX_DEFAULT_OUTPUT_TOKENS = 8192;

/** Without `maxTokens`, allow half the context window (at most 8192) for the answer, leaving the rest for the prompt. */
export function defaultGgufMaxTokens(contextSize: number): number {
  return Math.max(1, Math.min(MAX_DEFAULT_OUTPUT_TOKENS, Math.floor(contextSize / 2)));
}

export function ggufServerOptions(settings: GgufServerSettings, model: string | undefined): OpenAICompatibleOptions {
  return {
    id: 'ggufserver',
    model: model ?? settings.model ?? GGUFSERVER_DEFAULT_MODEL,
    baseURL: `${trimTrailingSlash(settings.baseUrl)}/v1`,
    maxTokens: settings.maxTokens ?? defaultGgufMaxTokens(settings.contextSize),
    temperature: settings.temperature,
    topP: settings.topP,
    extraBody: { top_k: settings.topK, repeat_penalty: settings.repeatPenalty, seed: settings.seed },
    contextWindow: settings.contextSize,
    includeUsage: true,
  };
}
