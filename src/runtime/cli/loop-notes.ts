/**
 * Terminal lines for the loop strategies' events (plan progress, reflections); undefined: nothing. A proposed plan is
 * shown by the interactive plan review (interactive/plan-review.ts).
 */
import type { AgentEvent, PlanStep } from '../../protocol';

const MARK: Record<PlanStep['status'], string> = { pending: '○', in_progress: '▸', done: '✓', failed: '✗', skipped: '–' };

export function planLines(steps: readonly PlanStep[]): string {
  return steps.map((s, i) => `  ${MARK[s.status]} ${i + 1}. ${s.title}${s.note && s.status !== 'pending' ? ` — ${s.note}` : ''}\n`).join('');
}

export function loopNote(e: AgentEvent): string | undefined {
  if (e.type === 'plan_update') {
    const step = e.stepIndex !== undefined ? e.steps[e.stepIndex] : undefined;
    const where = e.stepIndex !== undefined ? `step ${e.stepIndex + 1}/${e.steps.length}` : '';
    switch (e.change) {
      case 'created':
        return `plan (${e.steps.length} step${e.steps.length === 1 ? '' : 's'}):\n${planLines(e.steps)}`;
      case 'replanned':
        return `re-plan ${e.replans}:\n${planLines(e.steps)}`;
      case 'step_started':
        return `▸ ${where}: ${step?.title ?? ''}\n`;
      case 'step_done':
        return `✓ ${where} done${step?.note ? `: ${step.note}` : ''}\n`;
      case 'step_failed':
        return `✗ ${where} failed${step?.note ? `: ${step.note}` : ''}\n`;
      case 'skipped':
        return `– skipped: ${e.steps.filter((s) => s.status === 'skipped').map((s) => s.title).join(', ')}\n`;
    }
  }
  if (e.type === 'reflection') return `↻ reflection ${e.attempt}/${e.maxRetries} on ${e.failedTools.join(', ')}: ${e.critique}\n`;
  return undefined;
}
