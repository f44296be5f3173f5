/**
 * Quick pick items for "Select Model" and "Select Provider". Quick pick items cannot be disabled, so a model the
 * chat cannot run is listed with its reason and refused when chosen. Pure: no `vscode` import.
 */
import type { ResultOf } from '../../protocol/methods';
import { keyStatusText, type KeyStatus } from '../settings/secret-items';
import { PROVIDER_LABELS, PROVIDERS, type ProviderName } from '../settings/table';

export type ModelList = ResultOf<'listModels'>;

export interface ModelPickItem {
  label: string;
  description?: string;
  detail?: string;
  modelId: string;
  available: boolean;
  reason?: string;
}

/** Available models first (the current one on top), then unavailable ones with their reason. */
export function modelPickItems(list: ModelList): ModelPickItem[] {
  const available = list.models.filter((m) => m.available);
  const unavailable = list.models.filter((m) => !m.available);
  available.sort((a, b) => Number(b.id === list.current) - Number(a.id === list.current));
  const ctx = (n: number | undefined) => (n ? `${n.toLocaleString('en-US')}-token context` : undefined);
  return [
    ...available.map((m) => ({
      label: `${m.id === list.current ? '$(check)' : '$(blank)'} ${m.id}`,
      description: [m.id === list.current ? 'current' : undefined, ctx(m.contextWindow)].filter(Boolean).join(' · ') || undefined,
      modelId: m.id,
      available: true,
    })),
    ...unavailable.map((m) => ({
      label: `$(circle-slash) ${m.id}`,
      description: 'not available in chat',
      detail: m.reason ?? 'The chat cannot run this model.',
      modelId: m.id,
      available: false,
      reason: m.reason,
    })),
  ];
}

export interface ProviderPickItem {
  label: string;
  description?: string;
  provider: ProviderName;
}

/** One row per provider: what it is, whether its key is set (`keys`, when known), and the current one ticked. */
export function providerPickItems(current: string, keys: Record<ProviderName, KeyStatus> | undefined): ProviderPickItem[] {
  return PROVIDERS.map((p) => ({
    label: `${p === current ? '$(check)' : '$(blank)'} ${p}`,
    description: [PROVIDER_LABELS[p], keys ? keyStatusText(keys[p]) : undefined, p === current ? 'current' : undefined].filter(Boolean).join(' · '),
    provider: p,
  }));
}

/** What the panel and status bar show for a provider with no model yet. */
export const NO_MODEL_TEXT = 'choose a model';

/** The model as shown: the runtime reports a provider without a model as `(not configured)`. */
export function shownModel(model: string): string {
  return model === '(not configured)' ? NO_MODEL_TEXT : model;
}

/** The status bar text: `$(hubot) provider/model`, `provider: choose a model`, or the name before anything is known. */
export function modelStatusText(provider: string, model: string): string {
  if (!provider) return '$(hubot) agentcli';
  const shown = shownModel(model);
  return !shown || shown === NO_MODEL_TEXT ? `$(hubot) ${provider}: ${NO_MODEL_TEXT}` : `$(hubot) ${provider}/${shown}`;
}
