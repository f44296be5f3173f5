/**
 * The user's per-hunk marks on the pending batch: which hunks of which modified file are rejected (every hunk is kept
 * until rejected), what the proposed side of a diff then shows, which hunk a cursor line is in, and the `hunks`
 * selection a decision sends. Hunks are the runtime's (`ChangeContents.hunks`). No `vscode` import.
 */
import { applyHunks, type HunkApplication } from '../../protocol/change-hunks';
import type { ChangeBatch, ChangeContents, HunkSelection } from '../../protocol/records';

/** A file with some hunks rejected, as the panel's batch card shows it ("2 of 3 hunks"). */
export interface HunkTally {
  changeId: string;
  kept: number;
  total: number;
}

type Sides = Pick<ChangeContents, 'changeId' | 'originalContent' | 'proposedContent' | 'hunks'>;

export class HunkMarks {
  private batchId: string | undefined;
  /** Per change id: the revision the marks were made on and the rejected hunk indexes. */
  private readonly rejected = new Map<string, { revision: number; hunks: Set<number> }>();

  /** Follows the batch: marks of another batch, of a change gone, or of an older revision (other hunks) are dropped. */
  follow(batch: ChangeBatch | undefined): void {
    if (!batch || batch.id !== this.batchId) {
      this.rejected.clear();
      this.batchId = batch?.id;
      return;
    }
    const live = new Map(batch.changes.map((c) => [c.id, c.revision]));
    for (const [id, mark] of this.rejected) if (live.get(id) !== mark.revision) this.rejected.delete(id);
  }

  /** Marks hunk `index` of a change (at `revision`) kept or rejected. Returns false when that was already its mark. */
  mark(changeId: string, revision: number, index: number, keep: boolean): boolean {
    const held = this.rejected.get(changeId);
    const hunks = held && held.revision === revision ? held.hunks : new Set<number>();
    if (hunks.has(index) === !keep) return false;
    if (keep) hunks.delete(index);
    else hunks.add(index);
    if (hunks.size === 0) this.rejected.delete(changeId);
    else this.rejected.set(changeId, { revision, hunks });
    return true;
  }

  isRejected(changeId: string, index: number): boolean {
    return this.rejected.get(changeId)?.hunks.has(index) ?? false;
  }

  /** True when some hunk of the change is rejected (its proposed side then differs from the proposal). */
  hasRejected(changeId: string): boolean {
    return this.rejected.has(changeId);
  }

  get any(): boolean {
    return this.rejected.size > 0;
  }

  /** The proposal as the review shows it: the original with only the kept hunks (whole files: the proposal itself). */
  shown(c: Sides): HunkApplication | undefined {
    if (c.originalContent === null || c.proposedContent === null) return undefined;
    return applyHunks(c.originalContent, c.proposedContent, c.hunks, (i) => !this.isRejected(c.changeId, i));
  }

  /**
   * The hunk a 0-based line of one side is in, else the nearest one; undefined for a file without hunks. On the
   * original side the hunks keep their own lines; on the proposed side they are where `shown` put them.
   */
  hunkAt(c: Sides, side: 'original' | 'proposed', line: number): number | undefined {
    if (c.hunks.length === 0) return undefined;
    const starts = side === 'original' ? c.hunks.map((h) => h.oldStart - 1) : (this.shown(c)?.starts ?? []);
    const length = (i: number) => {
      const h = c.hunks[i]!;
      return side === 'original' || this.isRejected(c.changeId, i) ? h.oldLines : h.newLines;
    };
    let best = 0;
    let bestDistance = Number.POSITIVE_INFINITY;
    starts.forEach((start, i) => {
      const end = start + Math.max(length(i), 1) - 1;
      const distance = line < start ? start - line : line > end ? line - end : 0;
      if (distance < bestDistance) {
        best = i;
        bestDistance = distance;
      }
    });
    return best;
  }

  /** The `hunks` of a decision accepting `accepted`: the kept hunks of each accepted file with a rejected one. */
  selection(accepted: ReadonlySet<string>, contents: ReadonlyMap<string, Pick<ChangeContents, 'hunks'>>): HunkSelection | undefined {
    const out: HunkSelection = {};
    for (const [changeId, mark] of this.rejected) {
      if (!accepted.has(changeId)) continue;
      const c = contents.get(changeId);
      // Never fall back to the whole file: the user rejected part of it.
      if (!c) throw new Error(`the hunks of change ${changeId} are no longer loaded; open its diff again (Review) and decide`);
      out[changeId] = c.hunks.map((_, i) => i).filter((i) => !mark.hunks.has(i));
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  /** The files with rejected hunks, for the panel. */
  tallies(contents: ReadonlyMap<string, Pick<ChangeContents, 'hunks'>>): HunkTally[] {
    const out: HunkTally[] = [];
    for (const [changeId, mark] of this.rejected) {
      const total = contents.get(changeId)?.hunks.length;
      if (total !== undefined) out.push({ changeId, kept: total - mark.hunks.size, total });
    }
    return out;
  }
}
