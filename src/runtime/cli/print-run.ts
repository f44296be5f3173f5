import type { AgentEvent } from '../../protocol';
import type { RunHost } from '../agent/host';
import { toUnifiedDiff } from '../changes';
import type { Config } from '../config/schema';
import type { CliOptions } from './args';
import { createSession, type CliIo } from './main';

function summarizeArgs(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.pattern;
  return typeof main === 'string' ? ` ${main.length > 80 ? main.slice(0, 77) + '…' : main}` : '';
}

/**
 * A one-shot, non-interactive run (`agentcli -p`). Nobody can answer permission requests, so the policy decides
 * (deny unless allowed by a rule, or --yolo) and says so on stderr. Exit: 0 completed or stopped, 1 error, 130 aborted.
 */
export async function runPrint(prompt: string, opts: CliOptions, config: Config, io: CliIo): Promise<number> {
  // Deltas that arrive together (one network read holds many) go out as one write; anything on stderr first flushes
  // stdout so a terminal shows both in order.
  let pending = '';
  let endsWithNewline = true;
  const flush = () => {
    if (!pending) return;
    const s = pending;
    pending = '';
    io.stdout(s);
  };
  const write = (s: string) => {
    if (!s) return;
    if (!pending) setImmediate(flush);
    pending += s;
    endsWithNewline = s.endsWith('\n');
  };
  const note = (s: string) => {
    flush();
    io.stderr(s);
  };
  const host: RunHost = {
    interactive: false,
    notice: (m) => note(`agentcli: ${m}\n`),
    emit: (e: AgentEvent) => {
      if (e.type === 'message_update' && !opts.json) write(e.delta);
      else if (e.type === 'message_end' && !opts.json && !endsWithNewline) write('\n');
      else if (e.type === 'tool_start') note(`● ${e.toolName}${summarizeArgs(e.args)}\n`);
      else if (e.type === 'tool_end') note(`  ${e.success ? '✓' : '✗'} ${e.toolName} ${Math.round(e.durationMs)} ms${e.success ? '' : `: ${firstLine(e.error)}`}\n`);
      else if (e.type === 'error') note(`agentcli: error: ${e.error}${e.remedy ? `\n  remedy: ${e.remedy}` : ''}\n`);
      else if (e.type === 'file_modified' && !opts.patch) note(`  wrote ${e.path}\n`);
    },
  };
  let session;
  try {
    session = createSession(opts, config, host, io, opts.patch);
  } catch (e) {
    io.stderr(`agentcli: ${(e as Error).message}\n`);
    return 2;
  }
  const run = session.startRun({ message: prompt });
  const onSigint = () => {
    note('\nagentcli: aborting…\n');
    session.abort();
  };
  process.once('SIGINT', onSigint);
  const outcome = await run.done.finally(() => process.off('SIGINT', onSigint));

  let patch: string | undefined;
  let applied: Array<{ path: string; status: string; error?: string }> = [];
  const batch = session.store.pending();
  if (opts.patch && batch) {
    patch = toUnifiedDiff(batch);
    if (!opts.json) write(patch.endsWith('\n') ? patch : patch + '\n');
    if (outcome.status === 'aborted') {
      note('agentcli: the run was aborted; the patch was not applied\n');
    } else {
      const { results } = await session.decideChanges(batch.id, 'accept_all');
      applied = results.map((r) => ({ path: r.path, status: r.status, ...(r.error ? { error: r.error } : {}) }));
      for (const r of applied) note(`  ${r.status === 'applied' ? 'applied' : r.status}: ${r.path}${r.error ? ` (${r.error})` : ''}\n`);
    }
  }
  session.end();
  if (opts.json) {
    const result = {
      type: outcome.status === 'error' ? 'error' : 'result',
      content: outcome.status === 'error' ? (outcome.error?.message ?? 'error') : outcome.text,
      status: outcome.status,
      ...(outcome.stoppedReason ? { stoppedReason: outcome.stoppedReason } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      sessionId: session.id,
      ...(patch !== undefined ? { patch, applied } : {}),
    };
    write(JSON.stringify(result) + '\n');
  } else if (!endsWithNewline) write('\n');
  flush();
  if (outcome.status === 'error') return 1;
  if (outcome.status === 'aborted') return 130;
  if (applied.some((r) => r.status !== 'applied')) return 1;
  return 0;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}
