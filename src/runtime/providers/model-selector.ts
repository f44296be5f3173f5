/** Parses `provider/model` selectors (`/model serviceai/fantail`, `--model ggufserver/qwen`) and bare model ids. */
import { PROVIDER_IDS, type ProviderId } from '../../protocol/records';

export interface ModelSelector {
  provider?: ProviderId;
  model: string;
}

export function isProviderId(value: string): value is ProviderId {
  return (PROVIDER_IDS as readonly string[]).includes(value);
}

/**
 * Only a known provider id before the first `/` (or `:`) counts as a provider, so model ids that contain slashes
 * (`org/model-name`) or tags (`llama3.2:latest`) stay whole.
 * `serviceai/fantail` and `serviceai:fantail` → { provider: 'serviceai', model: 'fantail' }; `fantail` → { model }.
 */
export function parseModelSelector(selector: string): ModelSelector {
  const s = selector.trim();
  const match = /^([a-z]+)[/:](.+)$/i.exec(s);
  const head = match?.[1]?.toLowerCase();
  const rest = match?.[2]?.trim();
  if (head !== undefined && rest && isProviderId(head)) return { provider: head, model: rest };
  return { model: s };
}
