import type { AgentEvent } from '../../../protocol';
import type { RunHost } from '../../agent/host';
import type { RunOutcome } from '../../agent/react-loop';
import type { ActiveRun, Session } from '../../agent/session';
import type { Config } from '../../config/schema';
import { RUNTIME_VERSION } from '../../version';
import type { CliOptions } from '../args';
import { createSession } from '../create-session';
import type { CliIo } from '../io';
import { colorWanted, createStyle } from './ansi';
import { applyPendingBatch, reviewPendingBatch } from './batch-review';
import type { InteractiveContext } from './context';
import { changeSummary } from './diff-view';
import { EventView } from './event-view';
import { LineInput } from './line-input';
import { showError } from './model-picker';
import { reviewProposedPlan } from './plan-review';
import { QuestionQueue } from './questions';
import { runSlashCommand } from './slash-commands';

export interface TerminalStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A second Ctrl-C within this window exits. */
const DOUBLE_INTERRUPT_MS = 1000;
/** How long leaving waits for an aborted run to wind down. */
const ABORT_GRACE_MS = 5000;

/**
 * `agentcli` with no prompt on a terminal: a prompt loop over one Session (batch mode, so edits are reviewed after
 * each run). Returns the exit code (0, or 2 when the session cannot be created).
 */
export async function runInteractive(
  opts: CliOptions,
  config: Config,
  io: CliIo,
  streams: TerminalStreams = { input: process.stdin, output: process.stdout },
): Promise<number> {
  const style = createStyle(colorWanted(io.env, streams.output.isTTY));
  const view = new EventView((s) => streams.output.write(s), style);
  let onEvent: (e: AgentEvent) => void = () => undefined;
  const host: RunHost = {
    interactive: true,
    emit: (e) => onEvent(e),
    notice: (m) => view.line(style.dim(m)),
  };
  let session: Session;
  try {
    session = createSession(opts, config, host, io, true);
  } catch (e) {
    io.stderr(`agentcli: ${(e as Error).message}\n`);
    return 2;
  }
  const input = new LineInput({ input: streams.input, output: streams.output, terminal: streams.input.isTTY === true });
  const ctx: InteractiveContext = { session, input, view, style };
  const repl = new PromptLoop(ctx);
  onEvent = (e) => repl.onEvent(e);
  printBanner(ctx);
  return repl.run();
}

function printBanner(ctx: InteractiveContext): void {
  const { session, style, view } = ctx;
  const sel = session.selected();
  view.line(`${style.bold(`agentcli ${RUNTIME_VERSION}`)} ${style.dim('· interactive session')}`);
  view.line(`  ${style.dim('model      ')} ${sel.provider}/${sel.model}`);
  view.line(`  ${style.dim('directory  ')} ${session.cwd}`);
  view.line(`  ${style.dim('permissions')} ${session.permissionMode}${session.planMode ? ' (plan mode on)' : ''}`);
  const sandboxProblem = session.sandboxNotice();
  if (sandboxProblem) view.line(`  ${style.dim('sandbox    ')} unavailable: ${sandboxProblem}`);
  view.line(style.dim('Type a prompt and press Enter · /help for commands · Ctrl-C aborts a run · Ctrl-D exits'));
}

class PromptLoop {
  private readonly questions: QuestionQueue;
  private lastInterrupt = 0;
  private exitRequested = false;
  private atMainPrompt = false;

  constructor(private readonly ctx: InteractiveContext) {
    this.questions = new QuestionQueue(ctx);
    ctx.input.onInterrupt = (hadText) => this.interrupt(hadText);
    ctx.input.onClose = () => this.requestExit();
    ctx.input.onStrayLine = (line) => {
      if (line.trim()) ctx.view.line(ctx.style.dim('(a run is active, that line was not sent: wait for the answer, or Ctrl-C to abort)'));
    };
  }

  onEvent(e: AgentEvent): void {
    this.ctx.view.render(e);
    if (e.type === 'permission_request') this.questions.permission(e);
    else if (e.type === 'directory_access_request') this.questions.directory(e);
    else if ((e.type === 'permission_resolved' || e.type === 'directory_access_resolved') && e.outcome === 'cancelled') {
      this.questions.resolved(e.requestId);
    }
  }

  async run(): Promise<number> {
    const { input, style } = this.ctx;
    while (!this.exitRequested && !input.isClosed) {
      this.atMainPrompt = true;
      const line = await input.ask(style.bold(style.cyan('› ')));
      this.atMainPrompt = false;
      if (line === null) continue;
      const text = line.trim();
      if (!text) continue;
      if (/^\/plan$/i.test(text) && this.ctx.session.proposedPlan) {
        // `/plan` with a plan waiting shows it again with [a]ccept / [r]evise (else it toggles plan mode).
        const run = await reviewProposedPlan(this.ctx);
        if (run) await this.followRuns(run);
        continue;
      }
      if (text.startsWith('/')) {
        if ((await runSlashCommand(text, this.ctx)) === 'exit') break;
        continue;
      }
      await this.runPrompt(text);
    }
    return this.leave();
  }

  private async runPrompt(text: string): Promise<void> {
    const { session, view, style } = this.ctx;
    if (session.store.pending()) {
      view.line(style.yellow('The last run’s proposed changes need a decision before the next prompt:'));
      if ((await reviewPendingBatch(this.ctx)) !== 'decided') {
        view.line(style.dim('the prompt was not sent'));
        return;
      }
    }
    let run: ActiveRun;
    try {
      run = session.startRun({ message: text });
    } catch (err) {
      showError(this.ctx, err);
      return;
    }
    await this.followRuns(run);
  }

  /** Waits for the run; a plan it proposed (plan mode) is reviewed at once, and accept/revise start the next run. */
  private async followRuns(first: ActiveRun): Promise<void> {
    const { session } = this.ctx;
    let run: ActiveRun | undefined = first;
    while (run) {
      const outcome = await this.finishRun(run);
      if (outcome.stoppedReason !== 'plan_proposed' || this.exitRequested) break;
      run = await reviewProposedPlan(this.ctx);
    }
    if (this.exitRequested || !session.store.pending()) return;
    if (session.permissionMode === 'unrestricted') await applyPendingBatch(this.ctx);
    else await reviewPendingBatch(this.ctx);
  }

  private async finishRun(run: ActiveRun): Promise<RunOutcome> {
    const { view, style } = this.ctx;
    const outcome = await run.done;
    await this.questions.idle();
    view.newline();
    if (outcome.status === 'aborted') view.line(style.yellow('■ run aborted'));
    else if (outcome.status === 'stopped' && outcome.stoppedReason === 'max_iterations') {
      view.line(style.yellow('■ run stopped at the iteration limit (model requests per prompt): raise it with --max-iterations or maxIterations in the config'));
    } else if (outcome.status === 'stopped' && outcome.stoppedReason !== 'plan_proposed') {
      view.line(style.yellow(`■ run stopped: ${outcome.stoppedReason ?? 'stop condition'}`));
    }
    return outcome;
  }

  /** Ctrl-C: aborts a run; clears a typed line; at an empty prompt, or twice within a second, exits. */
  private interrupt(hadText: boolean): void {
    const { session, input, view, style } = this.ctx;
    const now = Date.now();
    const double = now - this.lastInterrupt < DOUBLE_INTERRUPT_MS;
    this.lastInterrupt = now;
    if (double) {
      this.requestExit();
      return;
    }
    if (this.ctx.busy) {
      this.ctx.busy.abort();
      return;
    }
    if (session.running) {
      input.cancel();
      session.abort();
      view.line(style.yellow('aborting the run… (Ctrl-C again within a second exits)'));
      return;
    }
    if (this.atMainPrompt) {
      if (hadText) input.cancel();
      else this.requestExit();
      return;
    }
    input.cancel();
  }

  private requestExit(): void {
    if (this.exitRequested) return;
    this.exitRequested = true;
    this.ctx.session.abort();
    this.ctx.input.cancel('');
  }

  private async leave(): Promise<number> {
    const { session, view, style, input } = this.ctx;
    this.exitRequested = true;
    const running = session.running;
    if (running) {
      session.abort();
      await Promise.race([running.done, new Promise((resolve) => setTimeout(resolve, ABORT_GRACE_MS).unref())]);
    }
    const batch = session.store.pending();
    if (batch) {
      view.line(style.yellow(`${batch.changes.length} proposed file change(s) were not applied:`));
      for (const c of batch.changes) view.line(`    ${changeSummary(c, style)}`);
    }
    session.end();
    await session.hooks.settled();
    view.line(style.dim('bye'));
    input.close();
    return 0;
  }
}
