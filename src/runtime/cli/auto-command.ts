import type { AgentEvent } from '../../protocol';
import { MAX_AUTOMODE_ITERATIONS } from '../../protocol/automode';
import type { RunHost } from '../agent/host';
import type { Session } from '../agent/session';
import { AutomodeController, DEFAULT_AUTOMODE_ITERATIONS, type AutomodeResult } from '../automode/controller';
import { toUnifiedDiff } from '../changes';
import { loadConfig } from '../config/load';
import { createProvider, parseModelSelector } from '../providers/create-provider';
import { ProviderError } from '../providers/types';
import { parseCliArgs, UsageError, type CliOptions } from './args';
import { createSession } from './create-session';
import type { CliIo } from './io';
import { askYesNo } from './ask-yes-no';

export const AUTO_USAGE = `Usage: agentcli auto "<goal>" [--max-iterations N] [--worktree] [--yolo] [other run options]

Works toward the goal in iterations (each a full run) until the model declares it met or N iterations
(default ${DEFAULT_AUTOMODE_ITERATIONS}, at most ${MAX_AUTOMODE_ITERATIONS}) ran. Progress goes to stderr, the summary to stdout.
Nobody approves in this run: what needs an approval is denied unless --yolo or an allow rule allows it.

  --max-iterations <n>   iterations of auto-mode (not model requests per iteration)
  --worktree             work in a git worktree on a new branch agentcli/auto-<id>: your working tree is untouched
                         (edits there need no approval; commands still do). At the end the branch's diff is printed
                         and applied here only with --yolo or a yes at the prompt; the branch stays for a merge.
  Also: --model, --provider, --yolo, --restricted, --permission-mode, --bare, --no-project-config, --sys-prompt...,
  --skill (as for -p).`;

const NOT_FOR_AUTO: Array<[keyof CliOptions, string]> = [
  ['json', '--json'],
  ['patch', '--patch'],
  ['acp', '--acp'],
  ['resume', '--resume'],
  ['continue', '--continue'],
];

function firstLine(text: string | undefined, max = 160): string {
  const line = (text ?? '').trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function summarizeArgs(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.pattern;
  return typeof main === 'string' ? ` ${firstLine(main, 80)}` : '';
}

/** Progress of the run on stderr: iterations, tool calls, errors, notices. */
function progressHost(io: CliIo, maxIterations: number): RunHost {
  return {
    interactive: false,
    notice: (m) => io.stderr(`agentcli: ${m}\n`),
    emit: (e: AgentEvent) => {
      if (e.type === 'turn_start' && e.turnNumber === 1) io.stderr(`[auto] iteration started (run ${e.runId})\n`);
      else if (e.type === 'tool_start') io.stderr(`  ● ${e.toolName}${summarizeArgs(e.args)}\n`);
      else if (e.type === 'tool_end') io.stderr(`    ${e.success ? '✓' : '✗'} ${e.toolName}${e.success ? '' : `: ${firstLine(e.error)}`}\n`);
      else if (e.type === 'error' && e.code !== 'tool_error') io.stderr(`  error: ${e.error}${e.remedy ? `\n  remedy: ${e.remedy}` : ''}\n`);
      else if (e.type === 'automode_iteration') io.stderr(`[auto] iteration ${e.iteration}/${maxIterations} ${e.status}: ${firstLine(e.summary) || '(no message)'}\n`);
      else if (e.type === 'automode_error') io.stderr(`[auto] failed in iteration ${e.iteration}: ${e.error}\n`);
    },
  };
}


/** `agentcli auto "<goal>" --max-iterations N [--worktree]`. Exit: 0 completed, 1 failed or not applied cleanly, 2 usage, 130 cancelled. */
export async function runAutoCommand(argv: string[], io: CliIo): Promise<number> {
  const worktree = argv.includes('--worktree');
  let opts: CliOptions;
  try {
    opts = parseCliArgs(argv.filter((a) => a !== '--worktree'));
    if (opts.help) {
      io.stdout(`${AUTO_USAGE}\n`);
      return 0;
    }
    for (const [key, flag] of NOT_FOR_AUTO) {
      if (opts[key]) throw new UsageError(`${flag} does not apply to agentcli auto`);
    }
    if (opts.mode !== 'print') throw new UsageError('--mode does not apply to agentcli auto (an rpc host calls startAutomode)');
    if (opts.prompt === undefined || opts.prompt.trim() === '') throw new UsageError('agentcli auto needs a goal: agentcli auto "<goal>" [--max-iterations N] [--worktree]');
    if ((opts.maxIterations ?? 0) > MAX_AUTOMODE_ITERATIONS) throw new UsageError(`--max-iterations is at most ${MAX_AUTOMODE_ITERATIONS} (got ${opts.maxIterations})`);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`agentcli: ${e.message}\nRun "agentcli auto --help" for usage.\n`);
    return 2;
  }
  const maxIterations = opts.maxIterations ?? DEFAULT_AUTOMODE_ITERATIONS;
  const { maxIterations: _auto, ...sessionOpts } = opts; // --max-iterations counts auto-mode iterations, not model requests
  let session: Session;
  try {
    const warn = (line: string) => io.stderr(`${line}\n`);
    const config = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, bare: opts.bare, projectConfig: opts.projectConfig, warn }).config;
    const sel = opts.model !== undefined ? parseModelSelector(opts.model) : undefined;
    createProvider(config, { ...(sel?.provider ?? opts.provider ? { provider: sel?.provider ?? opts.provider } : {}), ...(sel ? { model: sel.model } : {}) });
    session = createSession(sessionOpts, config, progressHost(io, maxIterations), io, false);
  } catch (e) {
    const remedy = e instanceof ProviderError ? `\n  remedy: ${e.remedy}` : '';
    io.stderr(`agentcli: ${(e as Error).message}${remedy}\n`);
    return 2;
  }
  const automode = new AutomodeController(session, io.home);
  try {
    await automode.start({ prompt: opts.prompt, maxIterations, useWorktree: worktree });
  } catch (e) {
    io.stderr(`agentcli: ${(e as Error).message}\n`);
    session.end();
    return 2;
  }
  const status = automode.status();
  if (status.worktree) io.stderr(`[auto] working in ${status.worktree} on branch ${status.branch}\n`);
  const onSigint = () => {
    io.stderr('\n[auto] cancelling…\n');
    automode.cancel();
  };
  process.once('SIGINT', onSigint);
  const result = await automode.finished!.finally(() => process.off('SIGINT', onSigint));
  const code = await report(result, session, opts, io);
  session.end();
  return code;
}

async function report(result: AutomodeResult, session: Session, opts: CliOptions, io: CliIo): Promise<number> {
  const { status } = result;
  io.stdout(`auto-mode ${status.state} after ${status.iteration} iteration(s): ${status.error ?? status.summary ?? ''}\n`);
  let code = status.state === 'completed' ? 0 : status.state === 'cancelled' ? 130 : 1;
  const wt = result.worktree;
  if (!wt) return code;
  io.stdout(`branch ${wt.branch} (worktree ${wt.path}) keeps the work; merge it with: git merge ${wt.branch}\n`);
  io.stdout(`remove the worktree when done: git worktree remove ${wt.path}\n`);
  if (result.skipped.length > 0) io.stderr(`agentcli: binary files changed on the branch are not in the diff (merge the branch for them): ${result.skipped.join(', ')}\n`);
  const batch = result.batchId ? session.store.pending() : null;
  if (!batch) {
    if (status.state === 'completed') io.stdout('the branch changed no files in this folder\n');
    return code;
  }
  const patch = toUnifiedDiff(batch);
  io.stdout(patch.endsWith('\n') ? patch : `${patch}\n`);
  const apply = opts.yolo || (process.stdin.isTTY === true && (await askYesNo(`Apply these ${batch.changes.length} file change(s) here? [y/N] `)));
  if (!apply) {
    await session.decideChanges(batch.id, 'reject_all');
    io.stderr(`agentcli: not applied here (pass --yolo, answer yes, or merge the branch: git merge ${wt.branch})\n`);
    return code;
  }
  const { results } = await session.decideChanges(batch.id, 'accept_all');
  for (const r of results) io.stderr(`  ${r.status}: ${r.path}${r.error ? ` (${r.error})` : ''}\n`);
  if (results.some((r) => r.status !== 'applied') && code === 0) code = 1;
  return code;
}
