/**
 * Per-hunk decisions. The runtime is the authority on a change's hunks: `structuredPatch` of the `diff` package with
 * HUNK_CONTEXT lines of context over the original and proposed contents, numbered in file order (what
 * `getChangeContents` answers). A decision that names hunks has its selection checked here, and each such change is
 * written as its original with only the chosen hunks applied (protocol/change-hunks.ts builds it from the hunk list).
 */
import { structuredPatch } from 'diff';
import { applyHunks } from '../../protocol/change-hunks';
import type { Change, ChangeHunk, HunkSelection } from '../../protocol/records';
import { HunkSelectionError } from './errors';

/** Lines of context around each hunk: also the `--patch` diff's, so the CLI and the editor show the same hunks. */
export const HUNK_CONTEXT = 3;

/** A change's two contents (null: created or deleted), as the store keeps them. */
interface Sides {
  originalContent: string | null;
  proposedContent: string | null;
}

/** What deciding per hunk needs of a stored change (kept structural, so the store's module can import this one). */
type HunkedChange = Sides & Pick<Change, 'id' | 'path' | 'kind'>;

/** The hunks of a modify; none for a create or a delete (decided as a whole file). */
export function hunksOf(change: Sides): ChangeHunk[] {
  if (change.originalContent === null || change.proposedContent === null) return [];
  const patch = structuredPatch('a', 'b', change.originalContent, change.proposedContent, undefined, undefined, { context: HUNK_CONTEXT });
  return patch.hunks.map(({ oldStart, oldLines, newStart, newLines }) => ({ oldStart, oldLines, newStart, newLines }));
}

/** A change decided per hunk: the content to write (the original with only `applied` hunks) and the hunk count. */
export interface HunkChoice {
  applied: number[];
  total: number;
  content: string;
}

/**
 * Checks `selection` against the batch and the changes the decision accepts, and builds each selected change's
 * content. Errors name the params path (`hunks.<change id>`) and the file: an unknown change id, a change the decision
 * does not accept, a created or deleted file (whole file only), an index out of range.
 */
export function chooseHunks(
  changes: readonly HunkedChange[],
  accepted: ReadonlySet<string>,
  selection: HunkSelection,
): Map<string, HunkChoice> {
  const byId = new Map(changes.map((c) => [c.id, c]));
  const choices = new Map<string, HunkChoice>();
  for (const [changeId, indexes] of Object.entries(selection)) {
    const where = `hunks.${changeId}`;
    const change = byId.get(changeId);
    if (!change) throw new HunkSelectionError(`${where}: no change ${changeId} in this batch (its ids: ${[...byId.keys()].join(', ')})`);
    if (!accepted.has(changeId)) {
      throw new HunkSelectionError(`${where}: ${change.path} is not accepted by this decision; add its id to changeIds, or leave its hunks out`);
    }
    if (change.originalContent === null || change.proposedContent === null) {
      throw new HunkSelectionError(`${where}: ${change.path} is ${change.kind === 'create' ? 'created' : 'deleted'} whole; accept or reject the file, not hunks`);
    }
    const hunks = hunksOf(change);
    const outOfRange = indexes.find((n) => n >= hunks.length);
    if (outOfRange !== undefined) {
      throw new HunkSelectionError(`${where}: ${change.path} has ${hunks.length} hunk(s), numbered 0 to ${hunks.length - 1}; there is no hunk ${outOfRange}`);
    }
    const chosen = new Set(indexes);
    const { content } = applyHunks(change.originalContent, change.proposedContent, hunks, (i) => chosen.has(i));
    // The hunks must reproduce the proposal when all are chosen; otherwise nothing built from them is trusted.
    if (applyHunks(change.originalContent, change.proposedContent, hunks, () => true).content !== change.proposedContent) {
      throw new HunkSelectionError(`${where}: the hunks of ${change.path} do not reproduce its proposal; accept or reject the file as a whole`);
    }
    choices.set(changeId, { applied: [...chosen].sort((a, b) => a - b), total: hunks.length, content });
  }
  return choices;
}
