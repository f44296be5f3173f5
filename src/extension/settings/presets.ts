/**
 * The local runner's hardware presets (spec 000 §2.4.1), as the extension offers them: the runtime's table
 * (src/runtime/config/presets.ts; a unit test keeps the two equal, since the extension may not import runtime code)
 * and what applying one writes to the `agentcli.localrunner.*` settings. Pure: no `vscode` import.
 */

export interface LocalRunnerPreset {
  name: '8gb-cpu' | '16gb-gpu' | '32gb-gpu';
  numCtx: number;
  keepAlive: string;
  description: string;
}

export const LOCALRUNNER_PRESETS: readonly LocalRunnerPreset[] = [
  { name: '8gb-cpu', numCtx: 2048, keepAlive: '1m', description: '8GB RAM, no GPU (7B coding model)' },
  { name: '16gb-gpu', numCtx: 4096, keepAlive: '10m', description: '16GB RAM with GPU (13B coding model)' },
  { name: '32gb-gpu', numCtx: 8192, keepAlive: '30m', description: '32GB or more RAM with GPU (33B coding model)' },
];

/** The settings a preset writes: config keys (the setting is `agentcli.<key>`) and their values. */
export function presetSettings(preset: LocalRunnerPreset): [key: string, value: number | string][] {
  return [
    ['localrunner.numCtx', preset.numCtx],
    ['localrunner.keepAlive', preset.keepAlive],
  ];
}

/** `numCtx 2048 · keepAlive 1m` */
export function presetValuesText(preset: LocalRunnerPreset): string {
  return presetSettings(preset)
    .map(([k, v]) => `${k.slice('localrunner.'.length)} ${v}`)
    .join(' · ');
}

export interface PresetPickItem {
  label: string;
  description: string;
  detail: string;
  preset: LocalRunnerPreset;
}

/**
 * Quick-pick rows: the preset's name, its hardware, and the values it writes. `current` reads the value in effect
 * for a config key; a preset whose values are all in effect is marked.
 */
export function presetPickItems(current: (key: string) => unknown): PresetPickItem[] {
  return LOCALRUNNER_PRESETS.map((p) => {
    const inEffect = presetSettings(p).every(([k, v]) => current(k) === v);
    return {
      label: p.name,
      description: inEffect ? `${p.description} (current)` : p.description,
      detail: `Sets ${presetValuesText(p)}`,
      preset: p,
    };
  });
}
