import '../zod-setup';
import os from 'node:os';
import path from 'node:path';
import type { Capabilities } from '../../protocol';
import type { CliIo } from './io';
import type { RunHost } from '../agent/host';
import { Session } from '../agent/session';
import { loadConfig } from '../config/load';
import { createProvider, parseModelSelector } from '../providers/create-provider';
import { ProviderError } from '../providers/types';
import { buildSystemPrompt, resolvePromptSource } from '../agent/system-prompt';
import { parseCliArgs, UsageError, USAGE, type CliOptions } from './args';
import { runPrint } from './print-run';
import { RUNTIME_VERSION } from '../version';
import type { Config } from '../config/schema';
import { createCoreTools } from '../tools/registry';

export type { CliIo } from './io';

/* eslint-disable @typescript-eslint/no-require-imports -- bundled as lazy modules: each mode loads only what it uses */
const lazy = {
  rpcServer: () => require('../rpc/server') as typeof import('../rpc/server'),
  interactive: () => require('./interactive/interactive-session') as typeof import('./interactive/interactive-session'),
};
type Subcommand = (args: string[], io: CliIo) => number | Promise<number>;
const SUBCOMMANDS: Record<string, () => Subcommand> = {
  config: () => (require('./config-command') as typeof import('./config-command')).runConfigCommand,
  decide: () => (require('./decide-command') as typeof import('./decide-command')).runDecideCommand,
  ggufserver: () => (require('./ggufserver-command') as typeof import('./ggufserver-command')).runGgufServerCommand,
  localrunner: () => (require('./localrunner-command') as typeof import('./localrunner-command')).runLocalRunnerCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The session's system prompt, built once: prompt files read and skills loaded now, so a missing file or an unknown
 * skill is a PromptSetupError at startup rather than a failure of every run.
 */
export function cliSystemPrompt(opts: CliOptions, io: CliIo, batchMode: boolean): string {
  return buildSystemPrompt({
    cwd: io.cwd,
    home: io.home,
    batchMode,
    ...(opts.sysPrompt ? { systemPrompt: resolvePromptSource(opts.sysPrompt, opts.sysPrompt.flag, io.cwd, io.home) } : {}),
    appendSystemPrompt: opts.appendSystemPrompt.map((s) => resolvePromptSource(s, s.flag, io.cwd, io.home)),
    skills: opts.skills,
  });
}

export function createSession(opts: CliOptions, config: Config, host: RunHost, io: CliIo, batchMode: boolean): Session {
  const sel = opts.model !== undefined ? parseModelSelector(opts.model) : undefined;
  const provider = sel?.provider ?? opts.provider;
  return new Session({
    cwd: io.cwd,
    home: io.home,
    config,
    projectConfigFile: path.join(io.cwd, '.agentcli', 'config.json'),
    host,
    batchMode,
    ...(opts.permissionMode
      ? { permissionMode: opts.permissionMode }
      : opts.yolo
        ? { permissionMode: 'unrestricted' as const }
        : opts.restricted
          ? { permissionMode: 'restricted' as const }
          : {}),
    selection: { ...(provider ? { provider } : {}), ...(sel ? { model: sel.model } : {}) },
    // The whole prompt, already built: the session uses it as is (no file or skill lookups per run).
    systemPrompt: cliSystemPrompt(opts, io, batchMode),
    ...(opts.maxIterations !== undefined ? { maxIterations: opts.maxIterations } : {}),
  });
}

/**
 * A one-shot run cannot fix its provider settings, so a missing key or base URL is a configuration error (exit 2)
 * found before the run; rpc and interactive sessions can still switch provider or set keys, so they check per run.
 */
function providerConfigProblem(opts: CliOptions, config: Config): string | undefined {
  const sel = opts.model !== undefined ? parseModelSelector(opts.model) : undefined;
  const provider = sel?.provider ?? opts.provider;
  try {
    createProvider(config, { ...(provider ? { provider } : {}), ...(sel ? { model: sel.model } : {}) });
    return undefined;
  } catch (e) {
    if (e instanceof ProviderError && e.code === 'config_error') return `${e.message}\n  remedy: ${e.remedy}`;
    throw e;
  }
}

function capabilities(): Capabilities {
  return {
    loopTypes: ['react'],
    tools: createCoreTools().map((t) => t.name),
    stepControl: true,
    changeBatches: true,
    structuredOutput: true,
    editorMcpTools: true,
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export async function main(argv: string[], io?: CliIo): Promise<number> {
  const cio: CliIo = io ?? {
    cwd: process.cwd(),
    home: os.homedir(),
    env: process.env,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  };
  const sub = argv[0] !== undefined ? SUBCOMMANDS[argv[0]] : undefined;
  if (sub) return sub()(argv.slice(1), cio);
  let opts: CliOptions;
  try {
    opts = parseCliArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      cio.stderr(`agentcli: ${e.message}\nRun "agentcli --help" for usage.\n`);
      return 2;
    }
    throw e;
  }
  if (opts.help) {
    cio.stdout(USAGE + '\n');
    return 0;
  }
  if (opts.version) {
    cio.stdout(`agentcli ${RUNTIME_VERSION}\n`);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig({ cwd: cio.cwd, home: cio.home, env: cio.env, bare: opts.bare, projectConfig: opts.projectConfig }).config;
    if (opts.model !== undefined) parseModelSelector(opts.model);
    cliSystemPrompt(opts, cio, false); // reads the prompt files and skills: a typo stops here, not at every run
  } catch (e) {
    cio.stderr(`agentcli: ${(e as Error).message}\n`);
    return 2;
  }
  if (opts.mode === 'rpc') {
    const { startRpcServer } = lazy.rpcServer();
    await startRpcServer({
      input: process.stdin,
      output: process.stdout,
      capabilities: capabilities(),
      log: (line) => cio.stderr(`[agentcli] ${line}\n`),
      createSession: (emit) => createSession(opts, config, { interactive: true, emit }, cio, true),
    });
    return 0;
  }
  let prompt = opts.prompt;
  if (prompt === undefined && process.stdin.isTTY) return lazy.interactive().runInteractive(opts, config, cio);
  if (prompt === undefined) prompt = await readStdin();
  if (!prompt) {
    cio.stderr('agentcli: no prompt given. Pass one with -p "<prompt>" or as an argument, pipe it on stdin, or use --mode rpc.\n');
    return 2;
  }
  const providerProblem = providerConfigProblem(opts, config);
  if (providerProblem) {
    cio.stderr(`agentcli: ${providerProblem}\n`);
    return 2;
  }
  return runPrint(prompt, opts, config, cio);
}
