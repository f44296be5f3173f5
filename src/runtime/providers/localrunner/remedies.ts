/**
 * The local runner's symptoms and remedies (spec 000 §7): server not started, model not pulled,
 * out of memory, slow (CPU-only) runs and a GPU that is not used.
 */
import { connectionRemedy, fromHttpRefusal, safeProviderError, type ErrorContext } from '../errors';
import type { ProviderError } from '../types';

/** The runner's command is not named (neutral wording); its `serve` and `pull` subcommands are. */
export const RUNNER_COMMAND = '<runner>';

const NOT_FOUND = /not found|no such model|pull/i;
const OUT_OF_MEMORY = /out of memory|\boom\b|insufficient memory|requires more system memory|not enough memory|cudaMalloc|failed to allocate/i;
const GPU_PROBLEM = /\b(cuda|rocm|gpu|vulkan|metal)\b.*\b(error|fail|not (found|detected|available))/i;

export interface LocalRunnerContext extends ErrorContext {
  numCtx: number;
}

export function startServerRemedy(endpoint: string): string {
  return connectionRemedy({ provider: 'localrunner', model: '', endpoint, secrets: [] });
}

export function pullRemedy(model: string): string {
  return `pull the model first: \`${RUNNER_COMMAND} pull ${model}\` (or choose an installed one: localrunner.model, --model localrunner/<name>:<tag>)`;
}

export function outOfMemoryRemedy(ctx: LocalRunnerContext): string {
  return `use a smaller model, or reduce localrunner.numCtx (now ${ctx.numCtx}), e.g. \`agentcli config set localrunner.numCtx ${Math.max(512, Math.floor(ctx.numCtx / 2))}\` or a preset such as \`agentcli config set localrunner.preset 8gb-cpu\``;
}

export const GPU_REMEDY = 'install the proper GPU driver so the runner can use the GPU, or set localrunner.numGpu 0 to run on the CPU';

/** An error the runner reported (HTTP error answer or an error line in the stream), mapped to its remedy. */
export function localRunnerRefusal(status: number | undefined, detail: string, ctx: LocalRunnerContext): ProviderError {
  const where = `the local runner at ${ctx.endpoint}`;
  const http = status === undefined ? '' : ` (HTTP ${status})`;
  // Memory and GPU failures carry no status: retrying them cannot help, and a status >= 500 would be retried.
  if (OUT_OF_MEMORY.test(detail)) {
    return safeProviderError(ctx, 'provider_error', `${where} ran out of memory with model "${ctx.model}"${http}: ${detail}`, outOfMemoryRemedy(ctx));
  }
  if (status === 404 || (status === undefined && NOT_FOUND.test(detail) && /model/i.test(detail))) {
    return safeProviderError(
      ctx,
      'model_not_available',
      `model "${ctx.model}" is not installed on ${where}: ${detail}`,
      pullRemedy(ctx.model),
      status,
    );
  }
  if (GPU_PROBLEM.test(detail)) {
    return safeProviderError(ctx, 'provider_error', `${where} had a GPU problem${http}: ${detail}`, GPU_REMEDY);
  }
  return fromHttpRefusal({ status, detail }, ctx);
}
