/**
 * A modified file with only some of its hunks applied. The runtime defines the hunks (`ChangeContents.hunks`); the
 * result is built from them alone: lines outside every hunk and inside the unchosen ones come from the original,
 * inside the chosen ones from the proposal, each line with its own line break, so the bytes are exact (CRLF, a last
 * line without a break). The runtime writes what this builds; the editor shows it as the proposed side of a diff.
 * Pure, no Node APIs.
 */
import type { ChangeHunk } from './records';

/** The lines of a text, each with its own line break (the last one may have none); none for an empty text. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

export interface HunkApplication {
  content: string;
  /** Per hunk, the 0-based line of `content` where its region (context lines included) begins. */
  starts: number[];
}

function append(out: string[], lines: readonly string[], from: number, to: number): void {
  for (let i = from; i < to; i++) out.push(lines[i]!);
}

/**
 * `original` with the hunks for which `chosen(index)` is true applied. All chosen gives `proposed`, none gives
 * `original`. Throws when the hunks do not fit the two texts (out of order, overlapping or past the end).
 */
export function applyHunks(
  original: string,
  proposed: string,
  hunks: readonly ChangeHunk[],
  chosen: (index: number) => boolean,
): HunkApplication {
  const from = linesOf(original);
  const to = linesOf(proposed);
  const out: string[] = [];
  const starts: number[] = [];
  let next = 0;
  hunks.forEach((h, index) => {
    const oldAt = h.oldStart - 1;
    const newAt = h.newStart - 1;
    if (oldAt < next || oldAt + h.oldLines > from.length || newAt < 0 || newAt + h.newLines > to.length) {
      throw new Error(`hunk ${index} (@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@) does not fit the file's contents`);
    }
    append(out, from, next, oldAt);
    starts.push(out.length);
    if (chosen(index)) append(out, to, newAt, newAt + h.newLines);
    else append(out, from, oldAt, oldAt + h.oldLines);
    next = oldAt + h.oldLines;
  });
  append(out, from, next, from.length);
  return { content: out.join(''), starts };
}
