export { createOpenAICompatibleProvider, DEFAULT_IDLE_TIMEOUT_MS, type OpenAICompatibleOptions } from './provider';
