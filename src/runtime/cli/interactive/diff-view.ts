import type { Change, ChangeResult } from '../../../protocol';
import { toUnifiedDiff, type StoredChange } from '../../changes';
import type { Style } from './ansi';

/** `modify src/a.ts (+3 −1)`: what happens to the file and how many lines are added and removed. */
export function changeSummary(change: Change, style: Style): string {
  const counts = `${style.green(`+${change.additions}`)} ${style.red(`−${change.deletions}`)}`;
  return `${kindLabel(change.kind, style)} ${style.bold(change.path)} (${counts})`;
}

function kindLabel(kind: Change['kind'], style: Style): string {
  if (kind === 'create') return style.green('create');
  if (kind === 'delete') return style.red('delete');
  return style.yellow('modify');
}

/**
 * Colors unified-diff text line by line: file headers bold, hunk headers cyan, additions green, removals red.
 * Header lines are recognized only outside hunks, so a removed line starting with `--` stays a removal.
 */
export function colorizeDiff(diffText: string, style: Style): string {
  let inHunk = false;
  return diffText
    .split('\n')
    .map((line) => {
      if (line.startsWith('diff --git')) inHunk = false;
      if (line.startsWith('@@')) {
        inHunk = true;
        return style.cyan(line);
      }
      if (!inHunk && /^(diff --git|index |--- |\+\+\+ |new file mode|deleted file mode|={3,})/.test(line)) return style.bold(line);
      if (line.startsWith('+')) return style.green(line);
      if (line.startsWith('-')) return style.red(line);
      if (line.startsWith('\\')) return style.dim(line);
      return line;
    })
    .join('\n');
}

/**
 * One file of a batch: a header line, then its colored unified diff (the `diff --git` preamble left out). With a
 * `number`, the header carries it and, when the file has more than one hunk, each hunk header its pick name (`2.1`).
 */
export function renderChange(change: StoredChange, style: Style, number?: number): string {
  const patch = toUnifiedDiff({ changes: [change] });
  const lines = patch.split('\n').filter((line) => !/^(diff --git|index |new file mode|deleted file mode|={3,})/.test(line));
  const hunkCount = lines.filter((line) => line.startsWith('@@')).length;
  let hunk = 0;
  const named = number === undefined || hunkCount < 2 ? lines : lines.map((line) => (line.startsWith('@@') ? `${line}  [${number}.${++hunk}]` : line));
  const body = named.join('\n').replace(/\n+$/, '');
  const header = `── ${number === undefined ? '' : `${number}. `}${changeSummary(change, style)} ──`;
  return body ? `${header}\n${colorizeDiff(body, style)}\n` : `${header}\n${style.dim('  (no line differences)')}\n`;
}

/** `✓ applied  src/a.ts`, `– rejected b.txt`, `! stale    c.txt: why`. */
export function renderResult(result: ChangeResult, style: Style): string {
  const hunks = result.hunks && result.status === 'applied' ? ` (${result.hunks.applied.length} of ${result.hunks.total} hunks)` : '';
  const detail = `${hunks}${result.error ? `: ${result.error}` : ''}`;
  switch (result.status) {
    case 'applied':
      return `  ${style.green('✓ applied ')} ${result.path}${detail}`;
    case 'rejected':
      return `  ${style.dim('– rejected')} ${result.path}`;
    case 'stale':
      return `  ${style.yellow('! stale   ')} ${result.path}${detail}`;
    case 'failed':
      return `  ${style.red('✗ failed  ')} ${result.path}${detail}`;
  }
}
