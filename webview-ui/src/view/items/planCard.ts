/**
 * A plan card: the steps as a checklist with status icons; a proposed plan has Accept and Revise (Revise opens a text
 * box for the note). And a reflection: a collapsed "Reflection" line with the critique inside.
 */
import type { PlanStepStatus } from '../../../../src/protocol/records';
import type { ItemOf } from '../../../../src/shared/chat/messages';
import { button, h } from '../dom';
import { wireCardKeys } from './cardKeys';
import type { ItemContext } from './context';

const STEP_ICON: Record<PlanStepStatus, string> = { pending: '○', in_progress: '◔', done: '✓', failed: '✗', skipped: '⤼' };
const STEP_WORD: Record<PlanStepStatus, string> = { pending: 'pending', in_progress: 'in progress', done: 'done', failed: 'failed', skipped: 'skipped' };

const TITLE: Record<ItemOf<'plan'>['status'], string> = {
  proposed: 'Proposed plan',
  accepted: 'Plan accepted',
  revised: 'Plan sent back for revision',
  expired: 'Proposed plan (no longer waiting)',
  running: 'Plan',
  finished: 'Plan',
};

/** "2 of 5 done" for a plan being carried out. */
export function planProgress(steps: ItemOf<'plan'>['steps']): string {
  const done = steps.filter((s) => s.status === 'done').length;
  const failed = steps.filter((s) => s.status === 'failed').length;
  return `${done} of ${steps.length} done${failed > 0 ? `, ${failed} failed` : ''}`;
}

function reviseForm(item: ItemOf<'plan'>, ctx: ItemContext, card: HTMLElement): HTMLElement {
  const input = h('textarea', {
    class: 'text-input alternative-input',
    testid: 'plan-revise-input',
    attrs: { rows: '2', placeholder: 'What should change? (Enter sends, Shift+Enter new line)', 'aria-label': 'What to change in the plan' },
  });
  const send = () => {
    const note = input.value.trim();
    if (note === '') {
      input.focus();
      input.classList.add('invalid');
      return;
    }
    ctx.post({ type: 'planDecision', planId: item.planId, decision: 'revise', note });
    ctx.markAnswered(item.id, 'Sending your note…');
  };
  input.addEventListener('input', () => input.classList.remove('invalid'));
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      send();
    } else if (ev.key === 'Escape') {
      form.remove();
      card.querySelector<HTMLButtonElement>('[data-testid="plan-revise"]')?.focus();
    }
  });
  const form = h('div', { class: 'alternative-form' }, input, button('Send', 'plan-revise-send', send, { class: 'btn primary' }));
  return form;
}

export function renderPlanCard(item: ItemOf<'plan'>, ctx: ItemContext): HTMLElement {
  const executing = item.status === 'running' || item.status === 'finished';
  const card = h('div', { class: `card plan-card ${item.status}`, testid: 'plan-card', attrs: { 'data-plan-id': item.planId, 'data-status': item.status, role: 'group', 'aria-label': TITLE[item.status] } },
    h('div', { class: 'card-title' },
      TITLE[item.status],
      executing ? h('span', { class: 'card-note plan-progress', testid: 'plan-progress', text: planProgress(item.steps) }) : null,
      item.replans !== undefined && item.replans > 0 ? h('span', { class: 'badge', text: `re-planned ${item.replans}×` }) : null,
    ),
  );
  const list = h('ol', { class: 'plan-steps' });
  for (const step of item.steps) {
    list.appendChild(h('li', { class: `plan-step ${step.status}`, testid: 'plan-step', attrs: { 'data-status': step.status } },
      h('span', { class: 'plan-step-icon', text: STEP_ICON[step.status], title: STEP_WORD[step.status], attrs: { 'aria-label': STEP_WORD[step.status] } }),
      h('span', { class: 'plan-step-text' },
        h('span', { class: 'plan-step-title', text: step.title }),
        step.detail !== undefined && step.detail !== '' ? h('span', { class: 'plan-step-detail', text: step.detail }) : null,
        step.note !== undefined && step.note !== '' ? h('span', { class: 'plan-step-note', text: step.note }) : null,
      ),
    ));
  }
  card.appendChild(list);
  if (item.status !== 'proposed') return card;
  const answered = ctx.answered.get(item.id);
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const revise = button('Revise…', 'plan-revise', () => {
    if (card.querySelector('.alternative-form') !== null) return;
    const form = reviseForm(item, ctx, card);
    card.appendChild(form);
    form.querySelector('textarea')?.focus();
  }, { class: 'btn secondary', title: 'Tell the agent what to change; it proposes a new plan' });
  const accept = button('Accept', 'plan-accept', () => {
    ctx.post({ type: 'planDecision', planId: item.planId, decision: 'accept' });
    ctx.markAnswered(item.id, 'Starting the plan…');
  }, { class: 'btn primary', title: 'Plan mode ends and the agent carries out the plan step by step' });
  card.appendChild(h('div', { class: 'button-row' }, accept, revise));
  wireCardKeys(card, [accept, revise], undefined, 'Keys: 1 accepts · 2 revises');
  ctx.claimFocus(item.id, card, accept);
  return card;
}

export function renderReflection(item: ItemOf<'reflection'>, ctx: ItemContext): HTMLElement {
  const details = h('details', { class: 'reflection', testid: 'reflection', attrs: { 'data-attempt': String(item.attempt) } });
  details.open = ctx.expandedTools.has(item.id);
  details.addEventListener('toggle', () => {
    if (details.open) ctx.expandedTools.add(item.id);
    else ctx.expandedTools.delete(item.id);
  });
  const tools = item.failedTools.length > 0 ? ` after ${item.failedTools.join(', ')} failed` : '';
  details.appendChild(h('summary', { class: 'reflection-summary', text: `Reflection ${item.attempt}/${item.maxRetries}${tools}` }));
  details.appendChild(h('div', { class: 'reflection-body', text: item.critique }));
  return details;
}
