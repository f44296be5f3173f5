/**
 * The local runner's symptoms and remedies (spec 000 §7): server not started, model not pulled,
 * out of memory, slow (CPU-only) runs and a GPU that is not used.
 */
import { connectionRemedy, fromHttpRefusal, safeProviderError, type ErrorContext } from '../errors';
import type { ProviderError } from '../types';

// The runner's own command is not named (neutral wording); its `serve` and `pull` subcommands are.
const NOT_FOUND = /not found|no such model|pull/i;
/**
 * How the runner says a model does not fit: its own memory checks, allocation failures of the GPU backends
 * ("unable to allocate CUDA0 buffer", "insufficient VRAM to load any model layers") and its runner process being
 * killed by the system's out-of-memory killer ("llama runner process has terminated: signal: killed").
 */
const OUT_OF_MEMORY = new RegExp(
  [
    'out of memory',
    '\\boom\\b',
    'insufficient (system )?memory',
    'insufficient vram',
    'requires more system memory',
    'not enough memory',
    'cudaMalloc',
    'failed to allocate',
    'unable to allocate',
    'process has terminated: signal: killed',
  ].join('|'),
  'i',
);
const GPU_PROBLEM =
  /\b(cuda|rocm|gpu|vulkan|metal)\b.*\b(error|fail|not (found|detected|available))|driver version is insufficient|no cuda-capable device/i;

export interface LocalRunnerContext extends ErrorContext {
  numCtx: number;
}

export function startServerRemedy(endpoint: string): string {
  return connectionRemedy({ provider: 'localrunner', model: '', endpoint, secrets: [] });
}

export function pullRemedy(model: string): string {
  return `pull the model first with the runner's pull command (\`pull ${model}\`), or choose an installed one: localrunner.model, --model localrunner/<name>:<tag>`;
}

export function outOfMemoryRemedy(ctx: LocalRunnerContext): string {
  return `use a smaller model, or reduce localrunner.numCtx (now ${ctx.numCtx}), e.g. \`agentcli config set localrunner.numCtx ${Math.max(512, Math.floor(ctx.numCtx / 2))}\` or a preset such as \`agentcli config set localrunner.preset 8gb-cpu\``;
}

/** spec §7 "GPU not detected": install the proper driver. Running on the CPU is a choice, not a fix, so it is only mentioned. */
export const GPU_REMEDY =
  'install or update the GPU driver so the runner sees the GPU, then restart the runner (to run on the CPU on purpose, set localrunner.numGpu 0)';

/** An error the runner reported (HTTP error answer or an error line in the stream), mapped to its remedy. */
export function localRunnerRefusal(status: number | undefined, detail: string, ctx: LocalRunnerContext): ProviderError {
  const where = `the local runner at ${ctx.endpoint}`;
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  // Memory and GPU failures carry no status: retrying them cannot help, and a status >= 500 would be retried.
  if (OUT_OF_MEMORY.test(detail)) {
    return safeProviderError(ctx, 'provider_error', `${where} ran out of memory with model "${ctx.model}"${http}: ${detail}`, outOfMemoryRemedy(ctx), undefined, undefined, {
      action: 'set_setting',
      configKey: 'localrunner.numCtx',
    });
  }
  if (status === 404 || (status === undefined && NOT_FOUND.test(detail) && /model/i.test(detail))) {
    return safeProviderError(
      ctx,
      'model_not_available',
      `model "${ctx.model}" is not installed on ${where}: ${detail}`,
      pullRemedy(ctx.model),
      status,
      undefined,
      { action: 'set_model', configKey: 'localrunner.model' },
    );
  }
  if (GPU_PROBLEM.test(detail)) {
    return safeProviderError(ctx, 'provider_error', `${where} had a GPU problem${http}: ${detail}`, GPU_REMEDY);
  }
  return fromHttpRefusal({ status, detail }, ctx);
}
