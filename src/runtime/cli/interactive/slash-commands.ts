import { describePendingBatch, reviewPendingBatch } from './batch-review';
import type { InteractiveContext } from './context';
import { openModelPicker, showError, switchModel, switchProvider } from './model-picker';
import { runCompactCommand } from './compact-command';
import { runResumeCommand } from './resume-command';
import { runHandoffCommand } from './handoff-command';
import { runUndoCommand } from './undo-command';

export const HELP_LINES: ReadonlyArray<[string, string]> = [
  ['/model', 'pick a model of the current provider'],
  ['/model <provider>/<model>', 'switch provider and model, e.g. /model ggufserver/my-model'],
  ['/provider <id>', 'switch provider (serviceai, localrunner, ggufserver, vendorapi, cloudhub)'],
  ['/plan [on|off]', 'toggle plan mode (read-only tools; the agent describes a plan)'],
  ['/review', 'review proposed file changes that wait for a decision'],
  ['/undo [path ...]', 'revert the last applied file changes (all of them, or the files named)'],
  ['/reset', 'start a new conversation (pending changes are kept)'],
  ['/resume [n|id]', 'list the saved sessions of this folder, or continue one'],
  ['/compact', 'summarise the conversation so far, so later prompts send less'],
  ['/handoff [minutes]', 'a link that continues this session in a browser or the editor (single use)'],
  ['/help', 'show this help'],
  ['/exit', 'leave (also Ctrl-D, or Ctrl-C at an empty prompt)'],
];

function printHelp(ctx: InteractiveContext): void {
  const width = Math.max(...HELP_LINES.map(([c]) => c.length));
  ctx.view.line(ctx.style.bold('Commands:'));
  for (const [cmd, what] of HELP_LINES) ctx.view.line(`  ${ctx.style.cyan(cmd.padEnd(width))}  ${what}`);
  ctx.view.line(ctx.style.dim('Anything else is a prompt for the agent. Ctrl-C aborts a run; twice within a second exits.'));
}

export type CommandResult = 'continue' | 'exit';

/** Runs one `/command` line. Unknown commands get a hint to /help. */
export async function runSlashCommand(line: string, ctx: InteractiveContext): Promise<CommandResult> {
  const trimmed = line.trim();
  const space = trimmed.search(/\s/);
  const name = (space < 0 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const arg = space < 0 ? '' : trimmed.slice(space + 1).trim();
  const { view, style, session } = ctx;
  switch (name) {
    case '/help':
    case '/?':
      printHelp(ctx);
      return 'continue';
    case '/exit':
    case '/quit':
      return 'exit';
    case '/model':
      if (arg) await switchModel(arg, ctx);
      else await openModelPicker(ctx);
      return 'continue';
    case '/provider':
      if (arg) switchProvider(arg, ctx);
      else view.line(`provider: ${style.bold(session.selected().provider)}; switch with /provider <id> or /model <provider>/<model>`);
      return 'continue';
    case '/plan':
      return setPlanMode(arg, ctx);
    case '/review':
      if ((await reviewPendingBatch(ctx)) === 'none') view.line(style.dim('no proposed changes are waiting for a decision'));
      return 'continue';
    case '/undo':
      await runUndoCommand(arg, ctx);
      return 'continue';
    case '/reset':
      try {
        session.reset();
      } catch (err) {
        showError(ctx, err);
        return 'continue';
      }
      view.line(`${style.green('✓')} new conversation started`);
      {
        const batch = session.store.pending();
        if (batch) describePendingBatch(batch, ctx);
      }
      return 'continue';
    case '/resume':
      runResumeCommand(arg, ctx);
      return 'continue';
    case '/compact':
      await runCompactCommand(ctx);
      return 'continue';
    case '/handoff':
      await runHandoffCommand(arg, ctx);
      return 'continue';
    default:
      view.line(`${style.yellow('?')} unknown command ${name}: type /help for the list of commands`);
      return 'continue';
  }
}

function setPlanMode(arg: string, ctx: InteractiveContext): CommandResult {
  const a = arg.toLowerCase();
  if (a && a !== 'on' && a !== 'off') {
    ctx.view.line(`${ctx.style.red('✗')} /plan takes "on", "off" or nothing (toggle); got "${arg}"`);
    return 'continue';
  }
  ctx.session.planMode = a ? a === 'on' : !ctx.session.planMode;
  ctx.view.line(
    ctx.session.planMode
      ? `${ctx.style.green('✓')} plan mode on: only read-only tools are offered until you accept the plan the agent proposes`
      : `${ctx.style.green('✓')} plan mode off`,
  );
  return 'continue';
}
