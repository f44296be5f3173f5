/**
 * Quick pick items for "Select Model" and "Select Provider". Quick pick items cannot be disabled, so a model the
 * chat cannot run is listed with its reason and refused when chosen. Pure: no `vscode` import.
 */
import type { ResultOf } from '../../protocol/methods';
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
  const ctx = (n: number | undefined) => (n ? `${n.toLocaleString('en-US')} tokens context` : undefined);
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

export function providerPickItems(current: string): ProviderPickItem[] {
  return PROVIDERS.map((p) => ({
    label: `${p === current ? '$(check)' : '$(blank)'} ${p}`,
    description: `${PROVIDER_LABELS[p]}${p === current ? ' · current' : ''}`,
    provider: p,
  }));
}

/** The status bar text: `$(hubot) provider/model`, or a prompt to pick when nothing is known yet. */
export function modelStatusText(provider: string, model: string): string {
  if (!provider) return '$(hubot) agentcli';
  return `$(hubot) ${provider}/${model || '(no model)'}`;
}
