/**
 * The start command of a gguf model server for the user's hardware (spec 000 §2.4.2): GPU layers ≈ VRAM GB × 2,
 * batch and context size by the VRAM table, threads from the CPU count, and quantization advice.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';

/** Placeholder for the server binary: agentcli does not assume which gguf server is installed. */
export const DEFAULT_SERVER_BIN = '<gguf-server>';
export const MODEL_PLACEHOLDER = '<path/to/model.gguf>';

/** §2.4.2 batch and context by VRAM (GB), largest first. */
export const VRAM_TABLE: ReadonlyArray<{ minVramGb: number; batchSize: number; ctxSize: number }> = [
  { minVramGb: 24, batchSize: 1024, ctxSize: 16384 },
  { minVramGb: 12, batchSize: 512, ctxSize: 8192 },
  { minVramGb: 8, batchSize: 256, ctxSize: 4096 },
  { minVramGb: 4, batchSize: 128, ctxSize: 2048 },
];

/** §2.4.2 quantization levels. */
export const QUANTIZATION_LEVELS: ReadonlyArray<{ level: string; bits: number; quality: string; speed: string }> = [
  { level: 'Q2_K', bits: 2, quality: 'lowest', speed: 'fastest' },
  { level: 'Q3_K_M', bits: 3, quality: 'low', speed: 'fast' },
  { level: 'Q4_K_M', bits: 4, quality: 'good', speed: 'balanced' },
  { level: 'Q5_K_M', bits: 5, quality: 'better', speed: 'moderate' },
  { level: 'Q6_K', bits: 6, quality: 'high', speed: 'slower' },
  { level: 'Q8_0', bits: 8, quality: 'highest', speed: 'slowest' },
];
export const RECOMMENDED_QUANTIZATION = 'Q4_K_M';

export interface HardwareInput {
  /** VRAM of each GPU in GB; absent or 0: no GPU. */
  vramGb?: number;
  /** Number of GPUs (default 1 when VRAM is given). */
  gpus?: number;
  /** System RAM in GB. */
  ramGb?: number;
  modelPath?: string;
  cpuCount: number;
  host: string;
  port: number;
  serverBin?: string;
  /** The configured ggufserver.contextSize, to say when it should follow the plan. */
  configuredContextSize?: number;
}

export interface LaunchPlan {
  command: string[];
  nGpuLayers: number;
  batchSize: number;
  ctxSize: number;
  threads: number;
  tensorSplit?: string;
  quantization: string;
  notes: string[];
}

/** What a file at `path` looks like: missing, not a gguf file (magic bytes), or fine. */
export function checkGgufFile(path: string): 'missing' | 'not-gguf' | 'ok' {
  if (!existsSync(path) || !statSync(path).isFile()) return 'missing';
  const fd = openSync(path, 'r');
  try {
    const magic = Buffer.alloc(4);
    const read = readSync(fd, magic, 0, 4, 0);
    return read === 4 && magic.toString('latin1') === 'GGUF' ? 'ok' : 'not-gguf';
  } finally {
    closeSync(fd);
  }
}

function quantizationAdvice(memoryGb: number | undefined): string {
  const base = `${RECOMMENDED_QUANTIZATION} is the recommended general choice (4 bits: good quality, balanced speed).`;
  if (memoryGb === undefined) return base;
  if (memoryGb < 6) return `${base} With ${memoryGb} GB, a 7B model may only fit as Q3_K_M or Q2_K (faster, lower quality).`;
  if (memoryGb >= 24) return `${base} With ${memoryGb} GB, Q5_K_M or Q6_K (better quality, slower) fit for mid-size models; Q8_0 is the highest quality and slowest.`;
  return base;
}

const SHELL_SAFE = /^[\w@%+=:,./-]+$/;
const PLACEHOLDER = /^<[\w/.-]+>$/;

/** Quotes an argument for a POSIX shell; placeholders such as `<gguf-server>` stay as they are, to be replaced. */
export function shellQuote(arg: string): string {
  if (SHELL_SAFE.test(arg) || PLACEHOLDER.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function planLaunch(input: HardwareInput): LaunchPlan {
  const gpus = input.vramGb && input.vramGb > 0 ? Math.max(1, input.gpus ?? 1) : 0;
  const totalVram = gpus > 0 ? (input.vramGb ?? 0) * gpus : 0;
  const row = VRAM_TABLE.find((r) => totalVram >= r.minVramGb) ?? VRAM_TABLE[VRAM_TABLE.length - 1]!;
  const nGpuLayers = Math.round(totalVram * 2);
  const threads = Math.max(1, input.cpuCount);
  const tensorSplit = gpus > 1 ? Array.from({ length: gpus }, () => '1').join(',') : undefined;
  const notes: string[] = [];
  const model = input.modelPath ?? MODEL_PLACEHOLDER;
  if (input.modelPath) {
    const state = checkGgufFile(input.modelPath);
    if (state === 'missing') notes.push(`${input.modelPath} does not exist yet: download the model file first.`);
    if (state === 'not-gguf') notes.push(`${input.modelPath} is not a gguf file (no GGUF header): verify the gguf format and the file's integrity (re-download it).`);
  } else {
    notes.push(`replace ${MODEL_PLACEHOLDER} with the model file (--model <path>).`);
  }
  const memoryGb = totalVram > 0 ? totalVram : input.ramGb;
  const command = [
    input.serverBin ?? DEFAULT_SERVER_BIN,
    '--model', model,
    '--host', input.host,
    '--port', String(input.port),
    '--ctx-size', String(row.ctxSize),
    '--batch-size', String(row.batchSize),
    '--threads', String(threads),
    '--n-gpu-layers', String(nGpuLayers),
    ...(tensorSplit ? ['--main-gpu', '0', '--tensor-split', tensorSplit] : []),
    '--mmap',
    ...(input.ramGb !== undefined && input.ramGb >= 32 ? ['--mlock'] : []),
  ];
  if (gpus === 0) {
    notes.push('no GPU given (--vram): everything runs on the CPU, so inference is slow; batch and context follow the smallest row of the table.');
  } else {
    notes.push(`${nGpuLayers} GPU layers ≈ ${totalVram} GB VRAM × 2; on out-of-memory errors reduce --n-gpu-layers or --ctx-size, and for slow inference offload more layers or use a smaller quantization.`);
  }
  if (input.configuredContextSize !== undefined && input.configuredContextSize !== row.ctxSize) {
    notes.push(`agentcli's ggufserver.contextSize is ${input.configuredContextSize}; match it: agentcli config set ggufserver.contextSize ${row.ctxSize}`);
  }
  return {
    command,
    nGpuLayers,
    batchSize: row.batchSize,
    ctxSize: row.ctxSize,
    threads,
    ...(tensorSplit ? { tensorSplit } : {}),
    quantization: quantizationAdvice(memoryGb),
    notes,
  };
}
