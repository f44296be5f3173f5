import type { ChangeBatch, ChangeResult } from '../../../protocol';
import type { StoredBatch } from '../../changes';
import { choice, choiceMenu, parseChoice, parsePick } from './answers';
import type { InteractiveContext } from './context';
import { changeSummary, renderChange, renderResult } from './diff-view';

const BATCH_OPTIONS = [choice('accept_all', 'accept all'), choice('reject_all', 'reject all'), choice('pick', 'pick files')];

export type ReviewOutcome = 'decided' | 'cancelled' | 'none';

/** A short list of the pending batch's files, for reminders (`/reset`, a prompt refused while a batch waits). */
export function describePendingBatch(batch: ChangeBatch, ctx: InteractiveContext): void {
  ctx.view.line(`${ctx.style.yellow('!')} ${batch.changes.length} proposed file change(s) wait for your decision (/review):`);
  for (const c of batch.changes) ctx.view.line(`    ${changeSummary(c, ctx.style)}`);
}

/**
 * Shows the session's pending change batch as colored diffs and asks accept all / reject all / pick files.
 * Nothing is written before the answer; per-file results are printed after. `cancelled` (Ctrl-C, Ctrl-D) keeps
 * the batch pending.
 */
export async function reviewPendingBatch(ctx: InteractiveContext): Promise<ReviewOutcome> {
  const batch = ctx.session.store.pending();
  if (!batch) return 'none';
  const { view, style } = ctx;
  view.line(style.bold(`Proposed changes: ${batch.changes.length} file(s)`));
  for (const change of batch.changes) view.print(renderChange(change, style));
  for (;;) {
    const line = await ctx.input.ask(`${choiceMenu(BATCH_OPTIONS)} › `);
    if (line === null) return cancelled(ctx);
    const picked = parseChoice(line, BATCH_OPTIONS);
    if (picked === undefined) {
      view.line(`  ${style.yellow(`"${line.trim()}" is not one of the choices:`)} type a, r or p and press Enter`);
      continue;
    }
    if (picked !== 'pick') return decide(ctx, batch, picked);
    const ids = await pickFiles(ctx, batch);
    if (ids === null) continue;
    return decide(ctx, batch, 'accept_selected', ids);
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

/** Lists the files numbered and reads a selection like `1,3` or `1-2`. Null goes back to the batch question. */
async function pickFiles(ctx: InteractiveContext, batch: StoredBatch): Promise<string[] | null> {
  batch.changes.forEach((c, i) => ctx.view.line(`  ${String(i + 1).padStart(2)}. ${changeSummary(c, ctx.style)}`));
  for (;;) {
    const line = await ctx.input.ask('files to apply (e.g. 1,3 or 1-2; empty goes back) › ');
    if (line === null || line.trim() === '') return null;
    const pick = parsePick(line, batch.changes.length);
    if (pick.ok) return pick.indexes.map((i) => batch.changes[i]!.id);
    ctx.view.line(`  ${ctx.style.yellow(pick.error)}`);
  }
}

async function decide(
  ctx: InteractiveContext,
  batch: StoredBatch,
  decision: 'accept_all' | 'reject_all' | 'accept_selected',
  ids?: string[],
): Promise<ReviewOutcome> {
  let results: ChangeResult[];
  try {
    ({ results } = await ctx.session.decideChanges(batch.id, decision, ids));
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
