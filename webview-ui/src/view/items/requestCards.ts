/** Permission and directory-access cards: the exact command or path and the answer buttons; a short line once resolved. */
import type { ItemOf, PermissionDecisionChoice } from '../../../../src/shared/chat/messages';
import { descriptionRepeatsCommand, directoryRequestText, rulesExplanation, type Piece } from '../../model/requestText';
import { button, h } from '../dom';
import { wireCardKeys } from './cardKeys';
import type { ItemContext } from './context';

const PERMISSION_BUTTONS: Array<{ choice: PermissionDecisionChoice; label: string; answered: string; class: string; title?: string }> = [
  { choice: 'once', label: 'Allow once', answered: 'Allowing once…', class: 'btn primary' },
  { choice: 'deny', label: 'Deny', answered: 'Denying…', class: 'btn secondary deny', title: 'Do not run it; the agent is told you refused' },
  { choice: 'session', label: 'Allow for this session', answered: 'Allowing for this session…', class: 'btn secondary' },
  { choice: 'always', label: 'Always allow', answered: 'Saving the rule…', class: 'btn secondary' },
];

function resolvedLine(kind: 'permission' | 'directory', subject: string, status: ItemOf<'permission'>['status'], extra: { scope?: string; alternative?: string } = {}): HTMLElement {
  const text =
    status === 'allowed' ? `✓ Allowed ${subject}${extra.scope !== undefined && extra.scope !== 'once' ? ` (${extra.scope === 'always' ? 'always' : 'this session'})` : ''}`
    : status === 'denied' ? `✗ Denied ${subject}${extra.alternative !== undefined ? `; suggested: ${extra.alternative}` : ''}`
    : `⊘ Request for ${subject} cancelled`;
  return h('div', { class: `request-resolved ${status}`, testid: `${kind}-resolved`, text, attrs: { 'data-status': status } });
}

function pieces(parts: Piece[]): Array<Node> {
  return parts.map((p) => (p.code === true ? h('code', { text: p.text }) : document.createTextNode(p.text)));
}

/** Grow with the text, up to a limit (then it scrolls). */
function autosize(area: HTMLTextAreaElement): void {
  area.style.height = 'auto';
  area.style.height = `${Math.min(area.scrollHeight + 2, 160)}px`;
}

function alternativeForm(item: ItemOf<'permission'>, ctx: ItemContext, card: HTMLElement): HTMLElement {
  const input = h('textarea', {
    class: 'text-input alternative-input',
    testid: 'permission-alternative-input',
    attrs: { rows: '2', placeholder: 'What should it do instead? (Enter sends, Shift+Enter new line)', 'aria-label': 'Suggested alternative' },
  });
  const send = () => {
    const text = input.value.trim();
    if (text === '') {
      input.focus();
      input.classList.add('invalid');
      return;
    }
    ctx.post({ type: 'permissionDecision', requestId: item.requestId, choice: 'deny', alternative: text });
    ctx.noteAlternative(item.requestId, text);
    ctx.markAnswered(item.id, 'Sending your alternative…');
  };
  input.addEventListener('input', () => {
    input.classList.remove('invalid');
    autosize(input);
  });
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      send();
    } else if (ev.key === 'Escape') {
      form.remove();
      card.querySelector<HTMLButtonElement>('[data-testid="permission-alternative"]')?.focus();
    }
  });
  const form = h('div', { class: 'alternative-form' }, input, button('Send', 'permission-alternative-send', send, { class: 'btn primary' }));
  return form;
}

export function renderPermissionCard(item: ItemOf<'permission'>, ctx: ItemContext): HTMLElement {
  if (item.status !== 'pending') return h('div', { class: 'msg' }, resolvedLine('permission', item.tool, item.status, { scope: item.scope, alternative: item.alternative }));
  ctx.acknowledge('permission', item.requestId);
  const answered = ctx.answered.get(item.id);
  const offered = new Set(item.choices);
  const rules = rulesExplanation(item.suggestedRules, { session: offered.has('session'), always: offered.has('always') });
  const card = h('div', { class: 'card request-card', testid: 'permission-card', attrs: { tabindex: '-1', role: 'group', 'aria-label': `Permission request for ${item.tool}`, 'data-request-id': item.requestId } },
    h('div', { class: 'card-title' }, h('span', { class: 'badge', text: item.tool }), ' wants permission'),
    descriptionRepeatsCommand(item.description, item.command) ? null : h('div', { class: 'card-description', text: item.description }),
    item.command !== undefined ? h('pre', { class: 'request-command', testid: 'permission-command', text: item.command }) : null,
    item.paths !== undefined && item.paths.length > 0 ? h('ul', { class: 'request-paths', testid: 'permission-paths' }, ...item.paths.map((p) => h('li', { text: p }))) : null,
    rules.length > 0 ? h('div', { class: 'request-rules', testid: 'permission-rules' }, ...pieces(rules)) : null,
  );
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const buttons = new Map<PermissionDecisionChoice, HTMLButtonElement>();
  for (const b of PERMISSION_BUTTONS) {
    if (!offered.has(b.choice)) continue;
    buttons.set(b.choice, button(b.label, `permission-${b.choice}`, () => {
      ctx.post({ type: 'permissionDecision', requestId: item.requestId, choice: b.choice });
      ctx.markAnswered(item.id, b.answered);
    }, { class: b.class, title: b.title }));
  }
  const row = (choices: PermissionDecisionChoice[]) => {
    const shown = choices.flatMap((c) => buttons.get(c) ?? []);
    return shown.length > 0 ? h('div', { class: 'button-row' }, ...shown) : null;
  };
  card.append(...[row(['once', 'deny']), row(['session', 'always'])].filter((r) => r !== null));
  const keyed = [...buttons.values()];
  if (offered.has('alternative')) {
    const suggest = button('Suggest alternative…', 'permission-alternative', () => {
      const existing = card.querySelector<HTMLTextAreaElement>('[data-testid="permission-alternative-input"]');
      if (existing !== null) return existing.focus();
      const form = alternativeForm(item, ctx, card);
      card.appendChild(form);
      form.querySelector('textarea')?.focus();
    }, { class: 'link-button', title: 'Deny, and tell the agent what to do instead' });
    card.appendChild(h('div', { class: 'link-row' }, suggest));
    keyed.push(suggest);
  }
  const deny = buttons.get('deny');
  wireCardKeys(card, keyed, deny, `Keys: 1–${keyed.length} answer${deny !== undefined ? ' · Esc denies' : ''}`);
  const primary = buttons.get('once') ?? keyed[0];
  if (primary !== undefined) ctx.claimFocus(item.id, card, primary);
  return card;
}

export function renderDirectoryCard(item: ItemOf<'directory'>, ctx: ItemContext): HTMLElement {
  if (item.status !== 'pending') return h('div', { class: 'msg' }, resolvedLine('directory', `access to ${item.path}`, item.status));
  ctx.acknowledge('directory', item.requestId);
  const answered = ctx.answered.get(item.id);
  const text = directoryRequestText(item.path, item.reason);
  const card = h('div', { class: 'card request-card', testid: 'directory-card', attrs: { tabindex: '-1', role: 'group', 'aria-label': 'Directory access request', 'data-request-id': item.requestId } },
    h('div', { class: 'card-title', text: 'Access outside the workspace' }),
    h('div', { class: 'card-description', testid: 'directory-lead', text: text.lead }),
    h('pre', { class: 'request-command', testid: 'directory-path', text: item.path, title: item.path }),
    text.reason !== undefined ? h('div', { class: 'request-rules', testid: 'directory-reason', text: text.reason }) : null,
  );
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const decide = (allowed: boolean, scope: 'once' | 'session' | undefined, label: string) => () => {
    ctx.post({ type: 'directoryDecision', requestId: item.requestId, allowed, ...(scope !== undefined ? { scope } : {}) });
    ctx.markAnswered(item.id, label);
  };
  const once = button('Allow once', 'directory-once', decide(true, 'once', 'Allowing once…'), { class: 'btn primary' });
  const deny = button('Deny', 'directory-deny', decide(false, undefined, 'Denying…'), { class: 'btn secondary deny' });
  const session = button('Allow for this session', 'directory-session', decide(true, 'session', 'Allowing for this session…'), { class: 'btn secondary', title: 'Allow this folder for the rest of this session' });
  card.appendChild(h('div', { class: 'button-row' }, once, deny));
  card.appendChild(h('div', { class: 'button-row' }, session));
  wireCardKeys(card, [once, deny, session], deny, 'Keys: 1–3 answer · Esc denies');
  ctx.claimFocus(item.id, card, once);
  return card;
}
