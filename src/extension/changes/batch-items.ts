/**
 * Pure helpers that turn a change batch into what the editor shows: quick pick items for "accept selected",
 * +/− summaries, and the per-file result lines after a decision. No `vscode` import.
 */
import type { Change, ChangeBatch, ChangeResult } from '../../protocol/records';

export interface ChangePickItem {
  label: string;
  description: string;
  detail?: string;
  picked: boolean;
  changeId: string;
}

const KIND_ICON: Record<Change['kind'], string> = { create: '$(diff-added)', modify: '$(diff-modified)', delete: '$(diff-removed)' };

export function lineCounts(change: Pick<Change, 'additions' | 'deletions'>): string {
  return `+${change.additions} −${change.deletions}`;
}

/**
 * One item per change, in batch order, every one ticked (Enter applies the whole batch) except the ids in `unticked`
 * (files the user already rejected from the diff editor title).
 */
export function changePickItems(batch: ChangeBatch, unticked: Iterable<string> = []): ChangePickItem[] {
  const rejected = new Set(unticked);
  return batch.changes.map((c) => ({
    label: `${KIND_ICON[c.kind]} ${c.path}`,
    description: `${c.kind} · ${lineCounts(c)}`,
    picked: !rejected.has(c.id),
    changeId: c.id,
  }));
}

/** The question asked when "Accept selected" ends with nothing ticked: rejecting everything is never silent. */
export function rejectAllQuestion(batch: ChangeBatch): string {
  const n = batch.changes.length;
  return n === 1 ? 'No file is ticked. Reject the 1 proposed file?' : `No file is ticked. Reject all ${n} files?`;
}

export interface BatchSummary {
  files: number;
  additions: number;
  deletions: number;
  text: string;
}

export function batchSummary(batch: ChangeBatch): BatchSummary {
  let additions = 0;
  let deletions = 0;
  for (const c of batch.changes) {
    additions += c.additions;
    deletions += c.deletions;
  }
  const files = batch.changes.length;
  return { files, additions, deletions, text: `${files} file${files === 1 ? '' : 's'} changed, +${additions} −${deletions}` };
}

const STATUS_WORD: Record<ChangeResult['status'], string> = {
  applied: 'applied',
  rejected: 'rejected',
  stale: 'not applied: changed on disk since the proposal',
  failed: 'failed',
};

/** `1 of 2 hunks` for a file written in part (per-hunk review); undefined when it was written whole or not at all. */
function partialHunks(r: ChangeResult): string | undefined {
  return r.status === 'applied' && r.hunks && r.hunks.applied.length < r.hunks.total ? `${r.hunks.applied.length} of ${r.hunks.total} hunks` : undefined;
}

/** One line per file, e.g. `src/a.ts: applied`, `c.ts: applied (1 of 2 hunks)`, `b.ts: failed (EACCES ...)`. */
export function resultLines(results: readonly ChangeResult[]): string[] {
  return results.map((r) => {
    const detail = r.error ?? partialHunks(r);
    return `${r.path}: ${STATUS_WORD[r.status]}${detail ? ` (${detail})` : ''}`;
  });
}

/**
 * A one-sentence toast text, problems first: `Applied 1 file, rejected 1.`, `Skipped 1 file (changed on disk), applied 1.`
 * The first count names the files; the rest are counts of files too.
 */
export function resultSummary(results: readonly ChangeResult[]): string {
  const counts = new Map<ChangeResult['status'], number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  const order: ChangeResult['status'][] = ['failed', 'stale', 'applied', 'rejected'];
  const parts = order
    .filter((s) => counts.has(s))
    .map((s, i) => {
      const n = counts.get(s)!;
      const count = i === 0 ? `${n} file${n === 1 ? '' : 's'}` : `${n}`;
      return { failed: `could not apply ${count}`, stale: `skipped ${count} (changed on disk)`, applied: `applied ${count}`, rejected: `rejected ${count}` }[s];
    });
  if (parts.length === 0) return 'Nothing to apply.';
  const text = parts.join(', ');
  const partial = results.filter((r) => partialHunks(r) !== undefined).map((r) => `${r.path}: ${partialHunks(r)}`);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.${partial.length > 0 ? ` In part: ${partial.join('; ')}.` : ''}`;
}

/** True when any file was not applied for a reason the user should look at. */
export function hasProblems(results: readonly ChangeResult[]): boolean {
  return results.some((r) => r.status === 'stale' || r.status === 'failed');
}
