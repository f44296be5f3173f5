/**
 * Plan mode in the terminal: after a run proposed a plan (`submit_plan`), show it and ask [a]ccept / [r]evise /
 * [l]ater. Accept leaves plan mode and starts the run that executes it; revise asks what to change and sends it as the
 * next prompt (still in plan mode); later keeps the plan waiting (`/plan` shows it again).
 */
import type { ActiveRun } from '../../agent/session';
import { choice, choiceMenu, parseChoice } from './answers';
import type { InteractiveContext } from './context';
import { showError } from './model-picker';
import { planLines } from '../loop-notes';

const PLAN_OPTIONS = [choice('accept', 'accept'), choice('revise', 'revise'), choice('later', 'later')];

/** Asks about the waiting plan; answers the run it started (accept, revise), or undefined (later, Ctrl-C, none waiting). */
export async function reviewProposedPlan(ctx: InteractiveContext): Promise<ActiveRun | undefined> {
  const plan = ctx.session.proposedPlan;
  if (!plan) return undefined;
  const { view, style, input, session } = ctx;
  view.line(style.bold(`Proposed plan (${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}):`));
  view.print(planLines(plan.steps.map((s) => ({ ...s, status: 'pending' as const }))));
  for (;;) {
    const line = await input.ask(`${choiceMenu(PLAN_OPTIONS)} › `);
    if (line === null) return later(ctx);
    const picked = parseChoice(line, PLAN_OPTIONS);
    if (picked === undefined) {
      view.line(`  ${style.yellow(`"${line.trim()}" is not one of the choices:`)} type a, r or l and press Enter`);
      continue;
    }
    if (picked === 'later') return later(ctx);
    let note: string | undefined;
    if (picked === 'revise') {
      const answer = await input.ask('What should change? › ');
      if (answer === null || answer.trim() === '') {
        view.line(style.dim('no note given: the plan still waits'));
        continue;
      }
      note = answer.trim();
    }
    try {
      const run = session.respondToPlan(plan.planId, picked, note);
      view.line(picked === 'accept' ? `${style.green('✓')} plan accepted: plan mode off, running it step by step` : style.dim('revision sent (plan mode stays on)'));
      return run;
    } catch (e) {
      showError(ctx, e);
      return undefined;
    }
  }
}

function later(ctx: InteractiveContext): undefined {
  ctx.view.line(ctx.style.dim('the plan waits: /plan shows it again (a newer proposal replaces it)'));
  return undefined;
}
