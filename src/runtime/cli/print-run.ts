import type { AgentEvent, ChangeBatch, ChangeResult } from '../../protocol';
import type { Session } from '../agent/session';
import type { DeniedAction, RunHost } from '../agent/host';
import { toUnifiedDiff } from '../changes';
import type { Config } from '../config/schema';
import type { CliOptions } from './args';
import { createSession } from './create-session';
import { createProvider } from '../providers/create-provider';
import type { ModelProvider } from '../providers/types';
import type { Selection } from '../agent/selection';
import type { CliIo } from './io';
import { loopNote } from './loop-notes';
import { rateLimitLine } from '../hooks/rate-limit-line';

function summarizeArgs(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  const main = a.command ?? a.path ?? a.pattern;
  return typeof main === 'string' ? ` ${main.length > 80 ? main.slice(0, 77) + '…' : main}` : '';
}

/**
 * A one-shot, non-interactive run (`agentcli -p`). Nobody can answer permission requests, so the policy decides
 * (deny unless allowed by a rule, or --yolo) and says so on stderr. With --patch the diff is always printed, and a
 * change is applied only when the policy allows that write without asking (--yolo, or an allow rule); the others are
 * listed on stderr with how to allow them. Exit: 0 completed or stopped (also when changes were left unapplied for want
 * of approval), 1 error or a change that could not be applied (stale, failed), 130 aborted.
 */
/** Hands out `first` once, then builds a provider for each later call (a run, a compaction, a critique). */
function firstThenNew(first: ModelProvider): (config: Config, selection: Selection) => ModelProvider {
  let unused: ModelProvider | undefined = first;
  return (config, selection) => {
    const p = unused ?? createProvider(config, selection);
    unused = undefined;
    return p;
  };
}

/** `provider`: already built for this run's selection (to check the config); the first run uses it. */
export async function runPrint(prompt: string, opts: CliOptions, config: Config, io: CliIo, provider?: ModelProvider): Promise<number> {
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
  const denied: DeniedAction[] = [];
  const host: RunHost = {
    interactive: false,
    notice: (m) => note(`agentcli: ${m}\n`),
    denied: (d) => {
      if (!denied.some((x) => x.tool === d.tool && x.target === d.target)) denied.push(d);
    },
    emit: (e: AgentEvent) => {
      if (e.type === 'message_update' && !opts.json) write(e.delta);
      else if (e.type === 'message_end' && !opts.json && !endsWithNewline) write('\n');
      else if (e.type === 'tool_start') note(`● ${e.toolName}${summarizeArgs(e.args)}\n`);
      else if (e.type === 'tool_end') note(`  ${e.success ? '✓' : '✗'} ${e.toolName} ${Math.round(e.durationMs)} ms${e.success ? '' : `: ${firstLine(e.error)}`}\n`);
      // A tool failure is already on its ✗ line (the `error` event beside it is for hosts that only watch errors).
      else if (e.type === 'error' && e.code !== 'tool_error') note(`agentcli: error: ${e.error}${e.remedy ? `\n  remedy: ${e.remedy}` : ''}\n`);
      else if (e.type === 'file_modified' && !opts.patch) note(`  wrote ${e.path}\n`);
      else if (e.type === 'rate_limited') note(`agentcli: ${rateLimitLine(e)}\n`);
      else if (e.type === 'plan_update' || e.type === 'reflection') note(loopNote(e) ?? '');
    },
  };
  let session;
  try {
    session = createSession(opts, config, host, io, opts.patch, provider ? { providerFactory: firstThenNew(provider) } : {});
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
  let applied: PatchResult[] = [];
  const batch = session.store.pending();
  if (opts.patch && batch) {
    patch = toUnifiedDiff(batch);
    if (!opts.json) write(patch.endsWith('\n') ? patch : patch + '\n');
    if (outcome.status === 'aborted') {
      note('agentcli: the run was aborted; the patch was not applied\n');
    } else {
      applied = await applyApproved(session, batch);
      for (const r of applied) {
        if (r.status !== 'not_approved') note(`  ${r.status}: ${r.path}${r.error ? ` (${r.error})` : ''}\n`);
      }
      const unapproved = applied.filter((r) => r.status === 'not_approved');
      if (unapproved.length > 0) note(notApprovedNotice(unapproved, opts.json === true));
    }
  }
  session.end();
  await session.hooks.settled(); // post-prompt and the notification hooks finish before the process exits
  if (outcome.status === 'stopped' && outcome.stoppedReason === 'max_iterations') {
    const limit = opts.maxIterations ?? config.maxIterations;
    note(`agentcli: stopped after ${limit} model request${limit === 1 ? '' : 's'} (the iteration limit); raise it with --max-iterations or maxIterations in the config\n`);
  }
  if (denied.length > 0) note(deniedSummary(denied));
  if (opts.json) {
    const result = {
      type: outcome.status === 'error' ? 'error' : 'result',
      content: outcome.status === 'error' ? (outcome.error?.message ?? 'error') : outcome.text,
      status: outcome.status,
      ...(outcome.stoppedReason ? { stoppedReason: outcome.stoppedReason } : {}),
      ...(outcome.error ? { error: outcome.error } : {}),
      sessionId: session.id,
      ...(patch !== undefined ? { patch, applied } : {}),
      denied: denied.map(({ tool, target, reason }) => ({ tool, target, reason })),
    };
    write(JSON.stringify(result) + '\n');
  } else if (!endsWithNewline) write('\n');
  flush();
  if (outcome.status === 'error') return 1;
  if (outcome.status === 'aborted') return 130;
  if (applied.some((r) => r.status !== 'applied' && r.status !== 'not_approved')) return 1;
  return 0;
}

interface PatchResult {
  path: string;
  status: ChangeResult['status'] | 'not_approved';
  error?: string;
  /** For a change not approved: an allow rule that would approve it. */
  rule?: string;
}

/**
 * Applies the changes whose write the policy allows without asking (unrestricted mode, or an allow rule); nobody can
 * approve the others in a non-interactive run, so they are reported as `not_approved` and left unwritten.
 */
async function applyApproved(session: Session, batch: ChangeBatch): Promise<PatchResult[]> {
  const verdicts = new Map(
    batch.changes.map((c) => [c.id, session.policy.evaluate({ ruleTool: 'Write', paths: [c.absolutePath], description: `Write ${c.path}` }, false)]),
  );
  const approved = batch.changes.filter((c) => verdicts.get(c.id)?.decision === 'allow').map((c) => c.id);
  const { results } = await session.decideChanges(batch.id, approved.length > 0 ? 'accept_selected' : 'reject_all', approved.length > 0 ? approved : undefined);
  return results.map((r): PatchResult => {
    if (!approved.includes(r.changeId)) {
      const rule = verdicts.get(r.changeId)?.suggestedRules[0];
      return { path: r.path, status: 'not_approved', ...(rule ? { rule } : {}) };
    }
    return { path: r.path, status: r.status, ...(r.error ? { error: r.error } : {}) };
  });
}

function notApprovedNotice(unapproved: PatchResult[], json: boolean): string {
  const rule = unapproved.find((r) => r.rule)?.rule ?? 'Write(<path>)';
  const diff = json ? 'the "patch" of the JSON result' : 'the printed diff';
  return (
    `agentcli: not applied (nobody approved these writes in this non-interactive run): ${unapproved.map((r) => r.path).join(', ')}\n` +
    `  to apply them: rerun with --yolo, add an allow rule such as "${rule}" to permissions.allow in .agentcli/config.json, ` +
    `or apply ${diff} yourself with \`git apply\`\n`
  );
}

/**
 * One summary of the refused tool calls, so a CI log shows them even though the run exits 0: what was denied, and for
 * each kind of refusal what would allow it (--yolo and allow rules only lift the approval nobody could give).
 */
export function deniedSummary(denied: readonly DeniedAction[]): string {
  const name = (d: DeniedAction) => `${d.tool} ${d.target.length > 80 ? d.target.slice(0, 77) + '…' : d.target}`;
  const groups: Array<[DeniedAction[], string]> = [];
  const add = (pick: (d: DeniedAction) => boolean, advice: (ds: DeniedAction[]) => string) => {
    const ds = denied.filter(pick);
    if (ds.length > 0) groups.push([ds, advice(ds)]);
  };
  add(
    (d) => d.allowedBy === 'flag-or-rule',
    (ds) => {
      const rule = ds.find((d) => d.rule)?.rule ?? 'Write(<path>)';
      return `allow ${ds.length === denied.length ? 'them' : 'these'} with --yolo or an allow rule such as ${rule} (permissions.allow in .agentcli/config.json)`;
    },
  );
  add(
    (d) => d.allowedBy === 'directory',
    () => 'folders outside the workspace need permissions.additionalDirectories in .agentcli/config.json (--yolo does not grant them)',
  );
  add(
    (d) => d.allowedBy === 'interactive',
    () =>
      'only an interactive approval can allow these (protected paths, risky commands, ask rules): run agentcli in a terminal, or use the editor; ' +
      'a risky command also runs under an allow rule naming that exact command',
  );
  add(
    (d) => d.allowedBy === 'config',
    () => 'refused by a deny rule or the restricted mode; change permissions.deny or the mode to allow them',
  );
  const head = `agentcli: ${denied.length} action(s) were denied: ${denied.map(name).join(', ')}`;
  const only = groups.length === 1 ? groups[0] : undefined;
  if (only) return `${head}; ${only[1]}\n`;
  return `${head}\n${groups.map(([ds, advice]) => `  ${ds.map(name).join(', ')}: ${advice}\n`).join('')}`;
}

function firstLine(s: string | undefined): string {
  return (s ?? '').split('\n')[0] ?? '';
}
