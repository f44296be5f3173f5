export { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './provider';
