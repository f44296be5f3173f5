/** What the editor shows around an undo: the file pick and the summary afterwards. No `vscode` import. */
import type { AppliedBatch, UndoFileResult } from '../../protocol/undo';

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const KIND = { create: 'created', modify: 'modified', delete: 'deleted' } as const;
const UNDO = { create: 'will be deleted', modify: 'gets its earlier content back', delete: 'will be re-created' } as const;

export interface UndoPickItem {
  label: string;
  description: string;
  detail: string;
  picked: boolean;
  path: string;
}

/** The files that can be undone, all ticked, with what undoing does to each; the title counts those that cannot. */
export function undoPick(batch: AppliedBatch): { items: UndoPickItem[]; title: string; placeHolder: string } {
  const files = batch.files.filter((f) => f.state === 'undoable');
  const items = files.map((f) => ({ label: f.path, description: KIND[f.kind], detail: `Undo: ${f.path} ${UNDO[f.kind]}`, picked: true, path: f.path }));
  const others = batch.files.filter((f) => f.state === 'not_undoable').length;
  return {
    items,
    title: `Undo applied changes (${plural(files.length, 'file')}${others ? `; ${plural(others, 'other file')} cannot be undone` : ''})`,
    placeHolder: 'Untick the files to keep as they are; Enter undoes the ticked ones. Esc cancels.',
  };
}

/** The notification after an undo: how many files are back, and each one left as it is with its reason. */
export function undoSummary(results: UndoFileResult[]): { text: string; problems: boolean } {
  const reverted = results.filter((r) => r.status === 'reverted').length;
  const left = results.filter((r) => r.status !== 'reverted');
  const head = reverted === 0 ? 'No file was undone.' : `Undid the changes to ${plural(reverted, 'file')}.`;
  if (left.length === 0) return { text: head, problems: false };
  return { text: `${head} ${left.map((r) => r.reason ?? `${r.path} was not undone`).join('; ')}.`, problems: true };
}

/** Why a batch the runtime keeps has no Undo: its files' reasons (each says it cannot be undone), or that it was undone. */
export function whyNotUndoable(batch: AppliedBatch): string {
  const reasons = batch.files.filter((f) => f.state === 'not_undoable').map((f) => f.reason ?? `${f.path} cannot be undone`);
  if (reasons.length === 0) return 'These changes were undone already.';
  const undone = batch.files.some((f) => f.state === 'undone') ? ' The other files were undone already.' : '';
  // "No Undo:" and not a capitalised reason: a reason starts with a path, whose case is its own
  return `No Undo: ${reasons.join('; ')}.${undone}`;
}
