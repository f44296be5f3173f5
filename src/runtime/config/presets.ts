/** Hardware presets of the local runner (spec 000 §2.4.1). */
export interface LocalRunnerPreset {
  numCtx: number;
  keepAlive: string;
  description: string;
}

export const LOCALRUNNER_PRESET_NAMES = ['8gb-cpu', '16gb-gpu', '32gb-gpu'] as const;
export type LocalRunnerPresetName = (typeof LOCALRUNNER_PRESET_NAMES)[number];

export const LOCALRUNNER_PRESETS: Readonly<Record<LocalRunnerPresetName, LocalRunnerPreset>> = {
  '8gb-cpu': { numCtx: 2048, keepAlive: '1m', description: '8GB RAM, no GPU (7B coding model)' },
  '16gb-gpu': { numCtx: 4096, keepAlive: '10m', description: '16GB RAM with GPU (13B coding model)' },
  '32gb-gpu': { numCtx: 8192, keepAlive: '30m', description: '32GB or more RAM with GPU (33B coding model)' },
};

/**
 * The raw (merged) config with `localrunner.preset` applied: the preset's `numCtx` and `keepAlive` fill the
 * values not set explicitly (an explicit value in any file or variable wins). An unknown preset is left for the
 * schema to report.
 */
export function applyLocalRunnerPreset<T extends Record<string, unknown>>(raw: T): T {
  const section = raw['localrunner'];
  if (typeof section !== 'object' || section === null || Array.isArray(section)) return raw;
  const settings = section as Record<string, unknown>;
  const name = settings['preset'];
  if (typeof name !== 'string' || !(LOCALRUNNER_PRESET_NAMES as readonly string[]).includes(name)) return raw;
  const preset = LOCALRUNNER_PRESETS[name as LocalRunnerPresetName];
  return {
    ...raw,
    localrunner: {
      ...settings,
      numCtx: settings['numCtx'] ?? preset.numCtx,
      keepAlive: settings['keepAlive'] ?? preset.keepAlive,
    },
  };
}
