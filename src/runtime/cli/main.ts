import '../zod-setup';
import fs from 'node:fs';
import os from 'node:os';
import type { Capabilities } from '../../protocol';
import { LOOP_TYPES } from '../../protocol/records';
import type { CliIo } from './io';
import { loadConfig } from '../config/load';
import { createProvider, parseModelSelector } from '../providers/create-provider';
import { ProviderError, type ModelProvider } from '../providers/types';
import { parseCliArgs, UsageError, USAGE, type CliOptions } from './args';
import { cliSystemPrompt, createSession } from './create-session';
import { runPrint } from './print-run';
import { RUNTIME_VERSION } from '../version';
import type { Config } from '../config/schema';
import { createCoreTools } from '../tools/registry';

export type { CliIo } from './io';

/* eslint-disable @typescript-eslint/no-require-imports -- bundled as lazy modules: each mode loads only what it uses */
const lazy = {
  rpcServer: () => require('../rpc/server') as typeof import('../rpc/server'),
  interactive: () => require('./interactive/interactive-session') as typeof import('./interactive/interactive-session'),
  acp: () => require('./acp-mode') as typeof import('./acp-mode'),
};
type Subcommand = (args: string[], io: CliIo) => number | Promise<number>;
const SUBCOMMANDS: Record<string, () => Subcommand> = {
  auto: () => (require('./auto-command') as typeof import('./auto-command')).runAutoCommand,
  config: () => (require('./config-command') as typeof import('./config-command')).runConfigCommand,
  decide: () => (require('./decide-command') as typeof import('./decide-command')).runDecideCommand,
  ggufserver: () => (require('./ggufserver-command') as typeof import('./ggufserver-command')).runGgufServerCommand,
  localrunner: () => (require('./localrunner-command') as typeof import('./localrunner-command')).runLocalRunnerCommand,
  mcp: () => (require('./mcp-command') as typeof import('./mcp-command')).runMcpCommand,
  sessions: () => (require('./sessions-command') as typeof import('./sessions-command')).runSessionsCommand,
  skills: () => (require('./skills-command') as typeof import('./skills-command')).runSkillsCommand,
};
/* eslint-enable @typescript-eslint/no-require-imports */


/**
 * A one-shot run cannot fix its provider settings, so a missing key or base URL is a configuration error (exit 2)
 * found before the run; rpc and interactive sessions can still switch provider or set keys, so they check per run.
 */
/**
 * Builds the provider the run will use, to report a configuration problem before anything starts. The provider built
 * is handed to the run (built once: constructing a client is part of the start-up time).
 */
function checkedProvider(opts: CliOptions, config: Config): { provider: ModelProvider } | { problem: string } {
  const sel = opts.model !== undefined ? parseModelSelector(opts.model) : undefined;
  const provider = sel?.provider ?? opts.provider;
  try {
    return { provider: createProvider(config, { ...(provider ? { provider } : {}), ...(sel ? { model: sel.model } : {}) }) };
  } catch (e) {
    if (e instanceof ProviderError && e.code === 'config_error') return { problem: `${e.message}\n  remedy: ${e.remedy}` };
    throw e;
  }
}

function capabilities(): Capabilities {
  return {
    loopTypes: [...LOOP_TYPES],
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

/** The most piped input a -p prompt takes along (it goes to the model whole). */
export const MAX_PIPED_INPUT_BYTES = 1024 * 1024;

/**
 * Is stdin something piped or redirected that will end (`cat log | agentcli -p`, `< file`)? Only a FIFO or a regular
 * file: a terminal is the user, and a socket is what Node gives a child process, which a caller may never close.
 */
export function stdinIsPipedInput(fd = 0): boolean {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

/** Reads piped stdin up to the cap; throws a UsageError naming the cap and what to do above it. */
async function readPipedInput(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stream = fs.createReadStream('', { fd: 0, autoClose: false, highWaterMark: 64 * 1024 });
  for await (const c of stream) {
    size += (c as Buffer).length;
    if (size > MAX_PIPED_INPUT_BYTES) {
      stream.destroy();
      throw new UsageError(
        `the input piped to -p is over ${MAX_PIPED_INPUT_BYTES / (1024 * 1024)} MB; pipe an excerpt (e.g. tail -c 200000 file), or name the file in the prompt so the agent reads what it needs`,
      );
    }
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The prompt followed by the piped text as a fenced block labelled stdin (a fence longer than any backtick run in it). */
export function withPipedInput(prompt: string, piped: string): string {
  const text = piped.replace(/\s+$/, '');
  if (text.trim() === '') return prompt;
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${prompt}\n\n${fence}stdin\n${text}\n${fence}`;
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
    const warn = (line: string) => cio.stderr(`${line}\n`);
    config = loadConfig({ cwd: cio.cwd, home: cio.home, env: cio.env, bare: opts.bare, projectConfig: opts.projectConfig, warn }).config;
    if (opts.model !== undefined) parseModelSelector(opts.model);
    cliSystemPrompt(opts, cio, false); // reads the prompt files and skills: a typo stops here, not at every run
  } catch (e) {
    cio.stderr(`agentcli: ${(e as Error).message}\n`);
    return 2;
  }
  if (opts.acp) return lazy.acp().runAcp(opts, cio);
  if (opts.mode === 'rpc') {
    const { startRpcServer } = lazy.rpcServer();
    await startRpcServer({
      input: process.stdin,
      output: process.stdout,
      capabilities: capabilities(),
      log: (line) => cio.stderr(`[agentcli] ${line}\n`),
      createSession: (emit) => {
        const session = createSession(opts, config, { interactive: true, emit }, cio, true);
        // Probed in the background once the server is up (off the startup path); getState reports the same.
        setImmediate(() => {
          void session.sandboxNoticeAsync().then((problem) => {
            if (problem) cio.stderr(`[agentcli] sandbox unavailable: ${problem}\n`);
          });
        });
        return session;
      },
    });
    return 0;
  }
  let prompt = opts.prompt;
  if (prompt === undefined && process.stdin.isTTY) {
    const oneShotOnly = opts.json ? '--json' : opts.patch ? '--patch' : undefined;
    if (oneShotOnly) {
      cio.stderr(
        `agentcli: ${oneShotOnly} needs a prompt: -p <text> (it applies to one-shot runs; the interactive session ${opts.json ? 'prints no JSON' : 'always reviews edits as a batch'})\n`,
      );
      return 2;
    }
    return lazy.interactive().runInteractive(opts, config, cio);
  }
  if (prompt === undefined) prompt = await readStdin();
  else if (stdinIsPipedInput()) {
    try {
      prompt = withPipedInput(prompt, await readPipedInput());
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      cio.stderr(`agentcli: ${e.message}\n`);
      return 2;
    }
  }
  if (!prompt) {
    cio.stderr('agentcli: no prompt given. Pass one with -p "<prompt>" or as an argument, pipe it on stdin, or use --mode rpc.\n');
    return 2;
  }
  const checked = checkedProvider(opts, config);
  if ('problem' in checked) {
    cio.stderr(`agentcli: ${checked.problem}\n`);
    return 2;
  }
  return runPrint(prompt, opts, config, cio, checked.provider);
}
