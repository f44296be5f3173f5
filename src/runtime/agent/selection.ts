import type { Config, ProviderId } from '../config/schema';

export interface Selection {
  provider?: ProviderId;
  model?: string;
}

/** The provider and model a run would use: explicit selection, then the global `model`, then the provider's own. */
export function effectiveSelection(config: Config, sel: Selection): { provider: ProviderId; model: string } {
  const provider = sel.provider ?? config.provider;
  const own = (config[provider] as { model?: string } | undefined)?.model;
  // A model chosen for another provider must not leak into this one: the global model applies only without a selection.
  const model = sel.model ?? (sel.provider ? own : (config.model ?? own));
  return { provider, model: model ?? '(server default)' };
}
