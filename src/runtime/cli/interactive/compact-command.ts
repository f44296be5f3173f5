/** `/compact` in the interactive session: summarise the conversation now, so later prompts send less. */
import type { InteractiveContext } from './context';
import { showError } from './model-picker';

export async function runCompactCommand(ctx: InteractiveContext): Promise<void> {
  const { session, view, style } = ctx;
  const before = session.contextUsage().usedTokens;
  const controller = new AbortController();
  ctx.busy = controller;
  view.line(style.dim('compacting the conversation… (Ctrl-C cancels)'));
  try {
    const done = await session.compactNow(controller.signal);
    if (!done) {
      view.line(style.dim('nothing to compact yet'));
      return;
    }
    view.line(`${style.green('✓')} conversation compacted: about ${before} → ${session.contextUsage().usedTokens} tokens`);
  } catch (err) {
    if (controller.signal.aborted) view.line(style.yellow('compaction cancelled; the conversation is unchanged'));
    else showError(ctx, err, 'cannot compact');
  } finally {
    ctx.busy = undefined;
  }
}
