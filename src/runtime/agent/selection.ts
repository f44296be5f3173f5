import type { Config, ProviderId } from '../config/schema';
import { createProvider } from '../providers/create-provider';

export interface Selection {
  provider?: ProviderId;
  model?: string;
}

/**
 * The provider and model a run would use, exactly as the provider would build it. When the provider cannot be built
 * yet (a missing key, say), the configured names are shown and the run itself reports what is missing.
 */
export function effectiveSelection(config: Config, sel: Selection): { provider: ProviderId; model: string } {
  try {
    const p = createProvider(config, sel);
    return { provider: p.id, model: p.model };
  } catch {
    const provider = sel.provider ?? config.provider;
    const own = (config[provider] as { model?: string } | undefined)?.model;
    return { provider, model: sel.model ?? config.model ?? own ?? '(not configured)' };
  }
}
