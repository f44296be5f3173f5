/**
 * Pure helpers of the auto-mode commands: the max-iterations input, the status bar text, the end notice and the log
 * as markdown. No `vscode` import.
 */
import type { AutomodeIterationLog, AutomodeStatus } from '../../protocol/automode';
import { MAX_AUTOMODE_ITERATIONS } from '../../protocol/limits';

/** A custom number of iterations: a whole number from 1 to MAX_AUTOMODE_ITERATIONS. */
export function parseMaxIterations(text: string): { value: number } | { error: string } {
  const t = text.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n)) return { error: 'Type a whole number of iterations, e.g. 15' };
  if (n < 1) return { error: 'At least 1 iteration' };
  if (n > MAX_AUTOMODE_ITERATIONS) return { error: `At most ${MAX_AUTOMODE_ITERATIONS} iterations` };
  return { value: n };
}

/**
 * The status bar item: "$(sync~spin) Auto 3/10" while an iteration runs (the one under way, counted from 1), paused
 * and finished states otherwise; undefined when nothing is to be shown.
 */
export function statusBarText(s: AutomodeStatus): { text: string; tooltip: string } | undefined {
  if (!s.active || s.state === undefined) return undefined;
  const goal = s.goal ? `: ${s.goal.length > 80 ? `${s.goal.slice(0, 79)}…` : s.goal}` : '';
  const where = s.branch ? ` in the worktree branch ${s.branch}` : '';
  if (s.state === 'paused') {
    return { text: `$(debug-pause) Auto ${s.iteration}/${s.maxIterations}`, tooltip: `Auto mode paused after iteration ${s.iteration} of ${s.maxIterations}${where}${goal}. Click to resume, cancel or see the log.` };
  }
  const current = Math.min(Math.max(s.iteration, 1), s.maxIterations);
  return { text: `$(sync~spin) Auto ${current}/${s.maxIterations}`, tooltip: `Auto mode: iteration ${current} of at most ${s.maxIterations}${where}${goal}. Click to pause, cancel or see the log.` };
}

/** The notification when a run ended. */
export function completionText(e: { reason: 'goal_met' | 'max_iterations' | 'cancelled'; iterations: number; summary: string; branch?: string }): string {
  const n = `${e.iterations} iteration${e.iterations === 1 ? '' : 's'}`;
  const branch = e.branch ? ` Its work is on the branch ${e.branch}.` : '';
  const summary = e.summary.trim() ? ` ${firstLine(e.summary)}` : '';
  if (e.reason === 'goal_met') return `Auto mode finished the goal after ${n}.${summary}${branch}`;
  if (e.reason === 'max_iterations') return `Auto mode stopped after ${n}, its limit, before the goal was met.${summary}${branch}`;
  return `Auto mode was cancelled after ${n}.${branch}`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
}

function argsLine(args: unknown): string {
  if (args === undefined || args === null) return '';
  const text = JSON.stringify(args) ?? '';
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** getAutomodeLog as a markdown document: the run's status, then each iteration with its tool calls and errors. */
export function logMarkdown(log: { status: AutomodeStatus; iterations: AutomodeIterationLog[] }): string {
  const s = log.status;
  const out: string[] = ['# Auto mode log', ''];
  if (s.state === undefined) return [...out, 'No auto-mode run yet in this runtime. Start one with **agentcli: Start Auto Mode…**.', ''].join('\n');
  if (s.goal) out.push(`**Goal:** ${s.goal}`, '');
  out.push(`- **State:** ${s.state}${s.interrupted ? ' (the runtime running it stopped)' : ''} — iteration ${s.iteration} of at most ${s.maxIterations}`);
  if (s.startedAt) out.push(`- **Started:** ${s.startedAt}`);
  if (s.branch) out.push(`- **Branch:** \`${s.branch}\`${s.worktree ? ` (worktree \`${s.worktree}\`)` : ''}`);
  if (s.summary) out.push(`- **Summary:** ${s.summary}`);
  if (s.error) out.push(`- **Error:** ${s.error}`);
  out.push('');
  for (const it of log.iterations) {
    out.push(`## Iteration ${it.iteration}${it.status ? ` — ${it.status}` : ' — running'}`, '');
    if (it.summary.trim()) out.push(it.summary.trim(), '');
    for (const c of it.toolCalls) {
      out.push(`- ${c.success ? '✓' : '✗'} \`${c.tool}\` ${argsLine(c.args)}`.trimEnd());
      const detail = c.error ?? (c.output && c.output.trim() ? c.output.trim() : undefined);
      if (detail) out.push('', fence(detail.length > 2000 ? `${detail.slice(0, 2000)}\n…` : detail), '');
    }
    if (it.toolCalls.length > 0) out.push('');
    for (const e of it.errors) out.push(`> **Error:** ${e}`, '');
  }
  if (log.iterations.length === 0) out.push('No iteration has finished yet.', '');
  return out.join('\n');
}
