/** Parses `provider/model` selectors (`/model serviceai/fantail`, `--model ggufserver/qwen`) and bare model ids. */
import { ProviderIds, type ProviderId } from './types';

export interface ModelSelector {
  provider?: ProviderId;
  model: string;
}

export function isProviderId(value: string): value is ProviderId {
  return (ProviderIds as readonly string[]).includes(value);
}

/**
 * Only a known provider id before the first slash counts as a provider, so model ids that contain slashes
 * (`org/model-name`) stay whole. `serviceai/fantail` → { provider: 'serviceai', model: 'fantail' }; `fantail` → { model }.
 */
export function parseModelSelector(selector: string): ModelSelector {
  const s = selector.trim();
  const slash = s.indexOf('/');
  if (slash > 0) {
    const head = s.slice(0, slash);
    const rest = s.slice(slash + 1).trim();
    if (isProviderId(head) && rest.length > 0) return { provider: head, model: rest };
  }
  return { model: s };
}
