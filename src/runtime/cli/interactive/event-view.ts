import type { AgentEvent, EventOf } from '../../../protocol';
import { loopNote } from '../loop-notes';
import { rateLimitLine } from '../../hooks/rate-limit-line';
import type { Style } from './ansi';

/** Command output shown per tool call before the rest is only counted (the model still gets all of it). */
export const MAX_OUTPUT_LINES = 12;
const MAX_LINE_CHARS = 200;

/** A one-line summary of a tool call's arguments: the command, path or pattern it works on. */
export function summarizeToolArgs(args: unknown, max = 80): string {
  if (!args || typeof args !== 'object') return '';
  const a = args as Record<string, unknown>;
  const main = a['command'] ?? a['path'] ?? a['pattern'] ?? a['url'];
  if (typeof main !== 'string') return '';
  const line = main.replace(/\s*\n\s*/g, ' ⏎ ');
  return line.length > max ? line.slice(0, max - 1) + '…' : line;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

interface ToolOutputState {
  partial: string;
  shown: number;
  hidden: number;
}

/**
 * Renders a run's events for the terminal: streamed answer text as it arrives, one compact line per tool call
 * (`● run_command npm test ✓ 1.2 s`), command output dimmed and bounded, errors with their remedy.
 * Permission, directory and change-batch events are handled by the session's questions, not here.
 */
export class EventView {
  private atLineStart = true;
  /** The tool call whose start line is the last thing printed, so its result can go on the same line. */
  private openToolLine: string | undefined;
  private readonly outputs = new Map<string, ToolOutputState>();

  constructor(
    private readonly write: (s: string) => void,
    private readonly style: Style,
  ) {}

  /** Writes text, remembering whether the cursor is at the start of a line. */
  print(s: string): void {
    if (!s) return;
    this.openToolLine = undefined;
    this.write(s);
    this.atLineStart = s.endsWith('\n');
  }

  /** Ends the current line if something was left on it. */
  newline(): void {
    if (!this.atLineStart) this.print('\n');
  }

  line(s: string): void {
    this.newline();
    this.print(s + '\n');
  }

  render(e: AgentEvent): void {
    switch (e.type) {
      case 'message_update':
        this.print(e.delta);
        break;
      case 'message_end':
        this.newline();
        break;
      case 'tool_start':
        this.toolStart(e);
        break;
      case 'tool_update':
        this.toolOutput(e.toolCallId, e.output);
        break;
      case 'tool_end':
        this.toolEnd(e);
        break;
      case 'error':
        if (e.code === 'tool_error') break; // already on the tool's ✗ line
        this.line(`${this.style.red('✗ error:')} ${e.error}`);
        if (e.remedy) this.line(`  ${this.style.yellow('remedy:')} ${e.remedy}`);
        break;
      case 'rate_limited':
        this.line(this.style.yellow(rateLimitLine(e)));
        break;
      case 'context_compacted':
        // Within a run (automatic); /compact says it itself.
        if (e.runId) this.line(this.style.dim(`(older turns summarised to fit the context window: about ${e.tokensBefore} → ${e.tokensAfter} tokens)`));
        break;
      default: {
        // The loop strategies' progress: plan steps, re-plans, reflections.
        const note = loopNote(e);
        if (note) {
          this.newline();
          this.print(this.style.dim(note));
        }
        break;
      }
    }
  }

  private toolStart(e: EventOf<'tool_start'>): void {
    const args = summarizeToolArgs(e.args);
    // No newline yet: the result (✓/✗ and duration) is appended to this line unless something comes in between.
    this.newline();
    this.print(`${this.style.cyan('●')} ${this.style.bold(e.toolName)}${args ? ' ' + args : ''}`);
    this.openToolLine = e.toolCallId;
    this.outputs.set(e.toolCallId, { partial: '', shown: 0, hidden: 0 });
  }

  private toolOutput(toolCallId: string, chunk: string): void {
    const state = this.outputs.get(toolCallId) ?? { partial: '', shown: 0, hidden: 0 };
    this.outputs.set(toolCallId, state);
    const lines = (state.partial + chunk).split(/\r?\n/);
    state.partial = lines.pop() ?? '';
    for (const l of lines) this.outputLine(state, l);
  }

  private outputLine(state: ToolOutputState, text: string): void {
    if (state.shown >= MAX_OUTPUT_LINES) {
      state.hidden++;
      return;
    }
    state.shown++;
    this.leaveToolLine();
    const clipped = text.length > MAX_LINE_CHARS ? text.slice(0, MAX_LINE_CHARS - 1) + '…' : text;
    this.print(this.style.dim(`  │ ${clipped}`) + '\n');
  }

  private toolEnd(e: EventOf<'tool_end'>): void {
    const state = this.outputs.get(e.toolCallId);
    this.outputs.delete(e.toolCallId);
    if (state?.partial) this.outputLine(state, state.partial);
    if (state && state.hidden > 0) {
      this.leaveToolLine();
      this.print(this.style.dim(`  │ … ${state.hidden} more line(s) not shown`) + '\n');
    }
    const mark = e.success ? this.style.green('✓') : this.style.red('✗');
    const duration = this.style.dim(formatDuration(e.durationMs));
    const failure = e.success ? '' : ` ${this.style.red(firstLine(e.error))}`;
    if (this.openToolLine === e.toolCallId) {
      this.print(` ${mark} ${duration}${failure}\n`);
      return;
    }
    this.line(`  ${mark} ${e.toolName} ${duration}${failure}`);
  }

  /** Ends a tool's start line before printing anything else under it. */
  private leaveToolLine(): void {
    this.newline();
  }
}

function firstLine(s: string | undefined): string {
  const line = (s ?? '').split('\n')[0] ?? '';
  return line.length > 160 ? line.slice(0, 159) + '…' : line;
}
