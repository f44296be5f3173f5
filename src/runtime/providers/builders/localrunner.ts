/** localrunner: settings → provider options (spec 000 §2.4.1). Needs no key. */
import type { LocalRunnerSettings } from '../../config/schema';
import { LocalRunnerProvider, type LocalRunnerOptions } from '../localrunner/provider';

export type LocalRunnerTuning = Pick<LocalRunnerOptions, 'idleTimeoutMs' | 'maxRetries' | 'retry' | 'fetch'>;

/**
 * `numCtx` is sent as `num_ctx` on every request; when `contextLength` (the model's maximum) is set and
 * smaller, it caps it. The server address is `baseUrl` (the loader already applied LOCALRUNNER_HOST).
 */
export function localRunnerOptions(settings: LocalRunnerSettings, model: string | undefined): LocalRunnerOptions {
  const numCtx = settings.contextLength !== undefined ? Math.min(settings.numCtx, settings.contextLength) : settings.numCtx;
  return {
    baseUrl: settings.baseUrl,
    model: model ?? settings.model,
    numCtx,
    temperature: settings.temperature,
    keepAlive: settings.keepAlive,
    ...(settings.numGpu !== undefined ? { numGpu: settings.numGpu } : {}),
    ...(settings.numThread !== undefined ? { numThread: settings.numThread } : {}),
    ...(settings.numBatch !== undefined ? { numBatch: settings.numBatch } : {}),
  };
}

export function createLocalRunnerProvider(settings: LocalRunnerSettings, model: string | undefined, tuning: LocalRunnerTuning = {}): LocalRunnerProvider {
  return new LocalRunnerProvider({ ...localRunnerOptions(settings, model), ...tuning });
}
