/** `/undo [path ...]` in the interactive session: reverts the last applied change batch and prints per-file results. */
import type { UndoFileResult } from '../../../protocol/undo';
import { undoInSession } from '../../agent/undo-changes';
import type { Style } from './ansi';
import type { InteractiveContext } from './context';
import { showError } from './model-picker';

function renderUndoResult(r: UndoFileResult, style: Style): string {
  const what = r.reason ?? r.path;
  switch (r.status) {
    case 'reverted':
      return `  ${style.green('✓ reverted')} ${r.path}`;
    case 'stale':
      return `  ${style.yellow('! kept    ')} ${what}`;
    case 'skipped':
      return `  ${style.dim('– skipped ')} ${what}`;
    case 'failed':
      return `  ${style.red('✗ failed  ')} ${what}`;
  }
}

/** `arg`: the files to revert (workspace-relative, separated by spaces), or empty for every file of the batch. */
export async function runUndoCommand(arg: string, ctx: InteractiveContext): Promise<void> {
  const { view, style } = ctx;
  const paths = arg.trim() === '' ? undefined : arg.trim().split(/\s+/);
  let outcome;
  try {
    outcome = await undoInSession(ctx.session, paths ? { paths } : {});
  } catch (err) {
    showError(ctx, err, 'cannot undo');
    return;
  }
  view.line(style.bold(`Undo of change batch ${outcome.batchId}:`));
  for (const r of outcome.results) view.line(renderUndoResult(r, style));
  const reverted = outcome.results.filter((r) => r.status === 'reverted').length;
  const left = outcome.results.length - reverted;
  view.line(
    left === 0
      ? `${style.green('✓')} ${reverted} file(s) back as they were before the batch`
      : style.yellow(`  ${reverted} file(s) reverted, ${left} left as they are (see above)`),
  );
}
