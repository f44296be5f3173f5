/**
 * The gguf model server's symptoms and remedies (spec 000 §7): out of memory, slow inference, a model that does
 * not load, CUDA errors and Metal that does not work. The server reports them as HTTP errors (500 with the
 * backend's message, 503 "Loading model") or as an error frame in the stream; each is matched on its words.
 */
import type { ProviderError } from '../types';

/** Offered with every remedy that means restarting the server with other flags. */
const COMMAND_HINT = '`agentcli ggufserver command --vram <GB>` prints a start command for your hardware';

export const GGUF_OUT_OF_MEMORY_REMEDY = `reduce \`--n-gpu-layers\` or \`--ctx-size\` when starting the model server (and keep ggufserver.contextSize at or below --ctx-size); ${COMMAND_HINT}`;
export const GGUF_SLOW_REMEDY = `offload more GPU layers (\`--n-gpu-layers\`) or use a smaller quantization (e.g. Q4_K_M instead of Q8_0); ${COMMAND_HINT}`;
export const GGUF_NOT_LOADING_REMEDY =
  'verify the gguf format and file integrity of the file passed to the server with `--model` (re-download it if its checksum differs), then restart the server';
export const GGUF_CUDA_REMEDY = 'update the GPU drivers and rebuild the model server for the right CUDA version';
export const GGUF_METAL_REMEDY = 'rebuild the model server with Metal enabled';

const OUT_OF_MEMORY = /out of memory|\boom\b|cudaMalloc|failed to allocate|insufficient memory|not enough memory/i;
const METAL = /\bmetal\b|\bmtl\b|ggml_metal/i;
const CUDA = /\bcuda\b|\bcublas\b|ggml_cuda/i;
const NOT_LOADING = /invalid (gguf )?magic|failed to load model|unable to load model|error loading model|not a gguf|gguf_init|corrupt|unknown model architecture/i;
const LOADING = /loading model/i;

export interface GgufSymptom {
  code: ProviderError['code'];
  /** What went wrong, in words, before the server's own message. */
  what: string;
  remedy: string;
  /** Keep the HTTP status (a 5xx is retried): only for a passing state such as a model still loading. */
  keepStatus: boolean;
}

/** The §7 symptom a gguf server's error message shows, if any. */
export function ggufSymptom(status: number | undefined, detail: string): GgufSymptom | undefined {
  if (OUT_OF_MEMORY.test(detail)) {
    return { code: 'provider_error', what: 'ran out of memory', remedy: GGUF_OUT_OF_MEMORY_REMEDY, keepStatus: false };
  }
  if (METAL.test(detail)) {
    return { code: 'provider_error', what: 'has a Metal (GPU) problem', remedy: GGUF_METAL_REMEDY, keepStatus: false };
  }
  if (CUDA.test(detail)) {
    return { code: 'provider_error', what: 'has a CUDA error', remedy: GGUF_CUDA_REMEDY, keepStatus: false };
  }
  if (status === 503 && LOADING.test(detail)) {
    return {
      code: 'provider_error',
      what: 'is still loading its model',
      remedy: `wait until the server has loaded the model, then retry; if it never finishes, ${GGUF_NOT_LOADING_REMEDY}`,
      keepStatus: true,
    };
  }
  if (NOT_LOADING.test(detail)) {
    return { code: 'model_not_available', what: 'could not load its model', remedy: GGUF_NOT_LOADING_REMEDY, keepStatus: false };
  }
  return undefined;
}
