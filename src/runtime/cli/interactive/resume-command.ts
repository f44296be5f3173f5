/**
 * `/resume` in the interactive session: without an argument, the saved sessions of this folder (newest first);
 * `/resume <id>` or `/resume <n>` (a number from that list) continues one.
 */
import type { InteractiveContext } from './context';
import { describePendingBatch } from './batch-review';
import { showError } from './model-picker';

const LIST_SIZE = 10;

export function runResumeCommand(arg: string, ctx: InteractiveContext): void {
  const { session, view, style } = ctx;
  const saved = session.saved;
  if (!saved) {
    view.line(`${style.red('✗')} saved sessions are not available in this session`);
    return;
  }
  const list = saved.history({ page: 1, pageSize: LIST_SIZE });
  if (!arg) {
    if (list.total === 0) {
      view.line(style.dim(`no saved sessions in ${session.cwd} yet`));
      return;
    }
    view.line(style.bold('Saved sessions in this folder (newest first):'));
    list.entries.forEach((e, i) => {
      const current = e.sessionId === session.id ? style.green(' (this one)') : '';
      view.line(`  ${String(i + 1).padStart(2)}. ${style.cyan(e.sessionId)}  ${e.updatedAt.slice(0, 16).replace('T', ' ')}  ${e.messageCount} msgs${current}`);
      view.line(`      ${e.title}`);
    });
    if (list.total > LIST_SIZE) view.line(style.dim(`  … ${list.total - LIST_SIZE} more: agentcli sessions list --page 2`));
    view.line(style.dim('Continue one with /resume <number> or /resume <id>'));
    return;
  }
  let id = arg;
  if (/^\d+$/.test(arg)) {
    const entry = list.entries[Number(arg) - 1];
    if (!entry) {
      view.line(`${style.red('✗')} there is no session ${arg} in the list: type /resume to see it`);
      return;
    }
    id = entry.sessionId;
  }
  let out;
  try {
    out = session.attachSaved(id);
  } catch (err) {
    showError(ctx, err, 'cannot resume');
    return;
  }
  if (!out.attached) {
    view.line(`${style.red('✗')} ${out.message}`);
    return;
  }
  view.line(`${style.green('✓')} resumed session ${out.sessionId} (${out.messageCount} message(s)); the next prompt continues it`);
  const lastPrompt = [...session.history].reverse().find((m) => m.role === 'user');
  if (lastPrompt) view.line(style.dim(`  last prompt: ${lastPrompt.content.replace(/\s+/g, ' ').slice(0, 100)}`));
  if (out.skippedLines) view.line(style.yellow('  its last line was cut short (the runtime was killed while writing) and was skipped'));
  if (out.unsavedChanges?.length) view.line(style.yellow(`  proposed changes not saved (they held a secret): ${out.unsavedChanges.join(', ')}`));
  if (out.pendingBatch) describePendingBatch(out.pendingBatch, ctx);
}
