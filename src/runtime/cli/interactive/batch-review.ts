import type { ChangeBatch, ChangeResult, HunkSelection } from '../../../protocol';
import type { StoredBatch } from '../../changes';
import { hunksOf } from '../../changes/hunks';
import { choice, choiceMenu, parseChoice, parsePick } from './answers';
import type { InteractiveContext } from './context';
import { changeSummary, renderChange, renderResult } from './diff-view';

const FILE_OPTIONS = [choice('accept_all', 'accept all'), choice('reject_all', 'reject all'), choice('pick', 'pick files')];
const HUNK_OPTIONS = [choice('accept_all', 'accept all'), choice('reject_all', 'reject all'), choice('pick', 'pick files or hunks')];

export type ReviewOutcome = 'decided' | 'cancelled' | 'none';

/** A short list of the pending batch's files, for reminders (`/reset`, a prompt refused while a batch waits). */
export function describePendingBatch(batch: ChangeBatch, ctx: InteractiveContext): void {
  ctx.view.line(`${ctx.style.yellow('!')} ${batch.changes.length} proposed file change(s) wait for your decision (/review):`);
  for (const c of batch.changes) ctx.view.line(`    ${changeSummary(c, ctx.style)}`);
}

/**
 * Shows the session's pending change batch as colored diffs and asks accept all / reject all / pick. A pick takes
 * files whole and, where a file has more than one hunk, single hunks (numbered in the diffs: `2.1` is file 2's first
 * hunk). Nothing is written before the answer; per-file results are printed after. `cancelled` (Ctrl-C, Ctrl-D) keeps
 * the batch pending.
 */
export async function reviewPendingBatch(ctx: InteractiveContext): Promise<ReviewOutcome> {
  const batch = ctx.session.store.pending();
  if (!batch) return 'none';
  const { view, style } = ctx;
  const hunkCounts = batch.changes.map((c) => hunksOf(c).length);
  const byHunk = hunkCounts.some((n) => n > 1);
  const options = byHunk ? HUNK_OPTIONS : FILE_OPTIONS;
  view.line(style.bold(`Proposed changes: ${batch.changes.length} file(s)`));
  batch.changes.forEach((change, i) => view.print(renderChange(change, style, byHunk ? i + 1 : undefined)));
  for (;;) {
    const line = await ctx.input.ask(`${choiceMenu(options)} › `);
    if (line === null) return cancelled(ctx);
    const picked = parseChoice(line, options);
    if (picked === undefined) {
      view.line(`  ${style.yellow(`"${line.trim()}" is not one of the choices:`)} type a, r or p and press Enter`);
      continue;
    }
    if (picked !== 'pick') return decide(ctx, batch, picked);
    const pick = await pickChanges(ctx, batch, hunkCounts);
    if (pick === null) continue;
    return decide(ctx, batch, 'accept_selected', pick.ids, pick.hunks);
  }
}

/**
 * Unrestricted mode (--yolo): the user approved everything up front, so the pending batch is applied without a
 * question; the file summaries and per-file results are printed.
 */
export async function applyPendingBatch(ctx: InteractiveContext): Promise<ReviewOutcome> {
  const batch = ctx.session.store.pending();
  if (!batch) return 'none';
  ctx.view.line(ctx.style.bold(`Applying ${batch.changes.length} proposed file change(s) without review (unrestricted mode, --yolo):`));
  for (const c of batch.changes) ctx.view.line(`    ${changeSummary(c, ctx.style)}`);
  return decide(ctx, batch, 'accept_all');
}

/**
 * Lists the files numbered (with their hunks' numbers where there are several) and reads a selection like `1,3`,
 * `1-2` or `2.1,2.3`. Null goes back to the batch question.
 */
async function pickChanges(ctx: InteractiveContext, batch: StoredBatch, hunkCounts: number[]): Promise<{ ids: string[]; hunks?: HunkSelection } | null> {
  const byHunk = hunkCounts.some((n) => n > 1);
  batch.changes.forEach((c, i) => {
    const n = hunkCounts[i] ?? 0;
    const hunks = n > 1 ? ctx.style.dim(`  hunks ${i + 1}.1–${i + 1}.${n}`) : '';
    ctx.view.line(`  ${String(i + 1).padStart(2)}. ${changeSummary(c, ctx.style)}${hunks}`);
  });
  const question = byHunk ? 'files or hunks to apply (e.g. 1,3 or 2.1,2.3; empty goes back) › ' : 'files to apply (e.g. 1,3 or 1-2; empty goes back) › ';
  for (;;) {
    const line = await ctx.input.ask(question);
    if (line === null || line.trim() === '') return null;
    const pick = parsePick(line, hunkCounts);
    if (!pick.ok) {
      ctx.view.line(`  ${ctx.style.yellow(pick.error)}`);
      continue;
    }
    const idOf = (i: number) => batch.changes[i]!.id;
    const ids = [...pick.files, ...pick.hunks.keys()].sort((a, b) => a - b).map(idOf);
    if (pick.hunks.size === 0) return { ids };
    return { ids, hunks: Object.fromEntries([...pick.hunks].map(([file, hunks]) => [idOf(file), hunks])) };
  }
}

async function decide(
  ctx: InteractiveContext,
  batch: StoredBatch,
  decision: 'accept_all' | 'reject_all' | 'accept_selected',
  ids?: string[],
  hunks?: HunkSelection,
): Promise<ReviewOutcome> {
  let results: ChangeResult[];
  try {
    ({ results } = await ctx.session.decideChanges(batch.id, decision, ids, hunks));
  } catch (err) {
    ctx.view.line(`${ctx.style.red('✗')} the decision could not be applied: ${(err as Error).message}`);
    return 'cancelled';
  }
  for (const r of results) ctx.view.line(renderResult(r, ctx.style));
  const notApplied = results.filter((r) => r.status === 'stale' || r.status === 'failed').length;
  if (notApplied > 0) {
    ctx.view.line(ctx.style.yellow(`  ${notApplied} file(s) were not written; ask the agent to redo them against the current files.`));
  }
  return 'decided';
}

function cancelled(ctx: InteractiveContext): ReviewOutcome {
  if (!ctx.input.isClosed) ctx.view.line(ctx.style.dim('  the changes stay pending: /review to decide, or send a prompt to be asked again'));
  return 'cancelled';
}
