import type { AgentEvent } from '../../protocol/events';
import type { AutomodeIterationLog } from '../../protocol/automode';

/** Most characters of one tool output or error the log keeps (head and tail). */
const MAX_LOGGED_OUTPUT = 4000;

export function clip(text: string, max = MAX_LOGGED_OUTPUT): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}

/** Builds one iteration's log entry from the events of its run (tool calls with results, errors, the last text). */
export class IterationRecorder {
  readonly entry: AutomodeIterationLog;
  private readonly argsByCall = new Map<string, unknown>();
  private lastText = '';

  constructor(iteration: number, runId: string) {
    this.entry = { iteration, runId, startedAt: new Date().toISOString(), summary: '', toolCalls: [], errors: [] };
  }

  observe(e: AgentEvent): void {
    if (!('runId' in e) || e.runId !== this.entry.runId) return;
    switch (e.type) {
      case 'tool_start':
        this.argsByCall.set(e.toolCallId, e.args);
        break;
      case 'tool_end':
        this.entry.toolCalls.push({
          tool: e.toolName,
          args: this.argsByCall.get(e.toolCallId) ?? null,
          success: e.success,
          ...(e.success ? { output: clip(e.output ?? '') } : { error: clip(e.error ?? '') }),
        });
        break;
      case 'message_end':
        if (e.content.trim() !== '') this.lastText = e.content;
        break;
      case 'error':
        if (e.code !== 'tool_error') this.entry.errors.push(clip(`${e.code}: ${e.error}`));
        break;
      default:
        break;
    }
  }

  /** Closes the entry: the summary is the complete_task summary when given, else the model's last text. */
  finish(status: string, completeSummary: string | undefined, error?: string): AutomodeIterationLog {
    this.entry.endedAt = new Date().toISOString();
    this.entry.status = status;
    this.entry.summary = clip(completeSummary ?? this.lastText);
    if (error && !this.entry.errors.some((x) => x.includes(error))) this.entry.errors.push(clip(error));
    return this.entry;
  }
}

/** What the next iteration's prompt says about the last one: its summary and its tool calls, briefly. */
export function describeIteration(entry: AutomodeIterationLog): string {
  const calls = entry.toolCalls.map((c) => {
    const a = c.args && typeof c.args === 'object' ? (c.args as Record<string, unknown>) : {};
    const what = a.command ?? a.path ?? a.pattern ?? '';
    return `- ${c.tool}${typeof what === 'string' && what ? ` ${what.slice(0, 120)}` : ''}: ${c.success ? 'ok' : `failed (${(c.error ?? '').split('\n')[0]?.slice(0, 200)})`}`;
  });
  const parts = [`Iteration ${entry.iteration} ended (${entry.status ?? 'unknown'}).`];
  if (entry.summary) parts.push(`Its last message: ${clip(entry.summary, 1500)}`);
  if (calls.length > 0) parts.push(`Its tool calls:\n${calls.slice(0, 40).join('\n')}${calls.length > 40 ? `\n- … ${calls.length - 40} more` : ''}`);
  if (entry.errors.length > 0) parts.push(`Its errors: ${entry.errors.map((x) => clip(x, 300)).join('; ')}`);
  return parts.join('\n');
}

export function iterationPrompt(goal: string, iteration: number, maxIterations: number, last: AutomodeIterationLog | undefined): string {
  return [
    `Auto-mode goal: ${goal}`,
    '',
    `This is iteration ${iteration} of at most ${maxIterations}. Nobody is watching: work toward the goal on your own, one solid step per iteration, and check your work (read files back, run the tests).`,
    'When the goal is fully met and checked, call the complete_task tool with a summary of what was done. Do not call it before.',
    '',
    last ? `What the last iteration did:\n${describeIteration(last)}` : 'This is the first iteration: nothing was done yet.',
  ].join('\n');
}
