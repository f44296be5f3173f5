/**
 * `agentcli ggufserver command [--vram GB] [--gpus N] [--ram GB] [--model path] [--server-bin name] [--json]`:
 * prints the start command of a gguf model server for this hardware, with quantization advice.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load';
import { defaultConfig } from '../config/schema';
import type { CliIo } from './io';
import { planLaunch, QUANTIZATION_LEVELS, shellQuote, VRAM_TABLE } from '../providers/ggufserver/launch-plan';
import { UsageError } from './usage-error';

export interface GgufServerCommandIo extends CliIo {
  /** CPU count (default: the machine's). */
  cpuCount?: number;
}

export const GGUFSERVER_USAGE = `Usage: agentcli ggufserver command [options]

Prints the command that starts a gguf model server for your hardware (flags of the server, not of agentcli).

  --vram <GB>          VRAM of each GPU (omit for CPU only); GPU layers ≈ total VRAM × 2
  --gpus <N>           number of GPUs, 1 or more (splits layers evenly with --tensor-split)
  --ram <GB>           system RAM (quantization advice; --mlock from 32 GB)
  --model <path>       the .gguf file (checked for the GGUF header)
  --server-bin <name>  the server executable (default: the <gguf-server> placeholder)
  --json               print the plan as JSON

Host and port come from ggufserver.baseUrl (default http://127.0.0.1:8080).`;


function number(name: string, value: string | undefined, integer: boolean, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const kind = integer ? 'a whole number' : 'a number';
  if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new UsageError(`${name} must be ${kind} of ${min} or more (got "${value}")`);
  }
  if (n < min) throw new UsageError(`${name} must be ${min} or more (got "${value}")`);
  return n;
}

const NUMERIC_OPTIONS = new Set(['--vram', '--gpus', '--ram']);

/**
 * `--vram -3` as `--vram=-3`: the argument parser takes a value starting with "-" for an option and calls it
 * ambiguous; joined, the value reaches the range check, which names the flag and the range.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (NUMERIC_OPTIONS.has(arg) && next !== undefined && /^-\d|^-\.\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

function quantizationTable(): string {
  return QUANTIZATION_LEVELS.map((q) => `  ${q.level.padEnd(7)} ${q.bits} bits  quality ${q.quality.padEnd(8)} speed ${q.speed}`).join('\n');
}

function vramTable(): string {
  return VRAM_TABLE.map((r) => `  ${`${r.minVramGb} GB`.padEnd(6)}${r.minVramGb === 24 ? '+' : ' '} batch ${String(r.batchSize).padEnd(5)} context ${r.ctxSize}`).join('\n');
}

export function runGgufServerCommand(argv: string[], io: GgufServerCommandIo): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(argv),
      allowPositionals: true,
      strict: true,
      options: {
        vram: { type: 'string' },
        gpus: { type: 'string' },
        ram: { type: 'string' },
        model: { type: 'string' },
        'server-bin': { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (parsed.values.help) {
      io.stdout(`${GGUFSERVER_USAGE}\n`);
      return 0;
    }
    if (parsed.positionals[0] !== 'command' || parsed.positionals.length !== 1) {
      throw new UsageError(`expected: agentcli ggufserver command [options] (got "${parsed.positionals.join(' ')}")`);
    }
    const v = parsed.values;
    const vramGb = number('--vram', v.vram, false);
    const gpus = number('--gpus', v.gpus, true, 1);
    const ramGb = number('--ram', v.ram, false);
    if (gpus !== undefined && vramGb === undefined) throw new UsageError('--gpus needs --vram (the VRAM of each GPU)');
    let settings = defaultConfig().ggufserver;
    try {
      settings = loadConfig({ cwd: io.cwd, home: io.home, env: io.env }).config.ggufserver;
    } catch (e) {
      io.stderr(`agentcli ggufserver: the config could not be read, using defaults (${(e as Error).message})\n`);
    }
    const url = new URL(settings.baseUrl);
    const plan = planLaunch({
      ...(vramGb !== undefined ? { vramGb } : {}),
      ...(gpus !== undefined ? { gpus } : {}),
      ...(ramGb !== undefined ? { ramGb } : {}),
      ...(v.model !== undefined ? { modelPath: v.model } : {}),
      ...(v['server-bin'] !== undefined ? { serverBin: v['server-bin'] } : {}),
      cpuCount: io.cpuCount ?? os.cpus().length,
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      configuredContextSize: settings.contextSize,
    });
    if (v.json) {
      io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
      return 0;
    }
    io.stdout(
      [
        plan.command.map(shellQuote).join(' '),
        '',
        ...plan.notes.map((n) => `- ${n}`),
        `- quantization: ${plan.quantization}`,
        '',
        'Quantization levels (fewer bits: smaller and faster, lower quality):',
        quantizationTable(),
        '',
        'Batch and context by VRAM:',
        vramTable(),
        '',
      ].join('\n'),
    );
    return 0;
  } catch (e) {
    if (e instanceof UsageError || (e instanceof Error && 'code' in e && String((e as { code: unknown }).code).startsWith('ERR_PARSE_ARGS'))) {
      io.stderr(`agentcli ggufserver: ${e.message}\n\n${GGUFSERVER_USAGE}\n`);
      return 2;
    }
    throw e;
  }
}
