/** Permission and directory-access cards: the exact command or path and the answer buttons; a short line once resolved. */
import type { ItemOf, PermissionDecisionChoice } from '../../messages';
import { button, h } from '../dom';
import type { ItemContext } from './context';

const PERMISSION_BUTTONS: Array<{ choice: PermissionDecisionChoice; label: string; answered: string }> = [
  { choice: 'once', label: 'Allow once', answered: 'Allowing once…' },
  { choice: 'session', label: 'Allow for this session', answered: 'Allowing for this session…' },
  { choice: 'always', label: 'Always allow', answered: 'Saving the rule…' },
  { choice: 'deny', label: 'Deny', answered: 'Denying…' },
];

function resolvedLine(kind: 'permission' | 'directory', subject: string, status: ItemOf<'permission'>['status'], scope?: string): HTMLElement {
  const text =
    status === 'allowed' ? `✓ Allowed ${subject}${scope !== undefined && scope !== 'once' ? ` (${scope === 'always' ? 'always' : 'this session'})` : ''}`
    : status === 'denied' ? `✗ Denied ${subject}`
    : `⊘ Request for ${subject} cancelled`;
  return h('div', { class: `request-resolved ${status}`, testid: `${kind}-resolved`, attrs: { 'data-status': status } }, text);
}

function alternativeForm(item: ItemOf<'permission'>, ctx: ItemContext, card: HTMLElement): HTMLElement {
  const input = h('input', { class: 'text-input', testid: 'permission-alternative-input', attrs: { type: 'text', placeholder: 'What should it do instead?', 'aria-label': 'Suggested alternative' } });
  const send = () => {
    const text = input.value.trim();
    if (text === '') {
      input.focus();
      input.classList.add('invalid');
      return;
    }
    ctx.post({ type: 'permissionDecision', requestId: item.requestId, choice: 'deny', alternative: text });
    ctx.markAnswered(item.id, 'Sending your alternative…');
  };
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
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
  if (item.status !== 'pending') return h('div', { class: 'msg' }, resolvedLine('permission', item.tool, item.status, item.scope));
  ctx.acknowledge('permission', item.requestId);
  const answered = ctx.answered.get(item.id);
  const card = h('div', { class: 'card request-card', testid: 'permission-card', attrs: { role: 'group', 'aria-label': `Permission request for ${item.tool}`, 'data-request-id': item.requestId } },
    h('div', { class: 'card-title' }, h('span', { class: 'badge', text: item.tool }), ' wants permission'),
    h('div', { class: 'card-description', text: item.description }),
    item.command !== undefined ? h('pre', { class: 'request-command', testid: 'permission-command', text: item.command }) : null,
    item.paths !== undefined && item.paths.length > 0 ? h('ul', { class: 'request-paths', testid: 'permission-paths' }, ...item.paths.map((p) => h('li', { text: p }))) : null,
    item.suggestedRules.length > 0 ? h('div', { class: 'request-rules', text: `Session/always saves: ${item.suggestedRules.join(', ')}` }) : null,
  );
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const offered = new Set(item.choices);
  const buttons = h('div', { class: 'button-row' });
  for (const b of PERMISSION_BUTTONS) {
    if (!offered.has(b.choice)) continue;
    buttons.appendChild(button(b.label, `permission-${b.choice}`, () => {
      ctx.post({ type: 'permissionDecision', requestId: item.requestId, choice: b.choice });
      ctx.markAnswered(item.id, b.answered);
    }, { class: b.choice === 'once' ? 'btn primary' : 'btn secondary' }));
  }
  if (offered.has('alternative')) {
    buttons.appendChild(button('Suggest alternative…', 'permission-alternative', () => {
      const existing = card.querySelector<HTMLInputElement>('[data-testid="permission-alternative-input"]');
      if (existing !== null) return existing.focus();
      const form = alternativeForm(item, ctx, card);
      card.appendChild(form);
      form.querySelector('input')?.focus();
    }, { class: 'btn secondary' }));
  }
  card.appendChild(buttons);
  return card;
}

export function renderDirectoryCard(item: ItemOf<'directory'>, ctx: ItemContext): HTMLElement {
  if (item.status !== 'pending') return h('div', { class: 'msg' }, resolvedLine('directory', `access to ${item.path}`, item.status));
  ctx.acknowledge('directory', item.requestId);
  const answered = ctx.answered.get(item.id);
  const card = h('div', { class: 'card request-card', testid: 'directory-card', attrs: { role: 'group', 'aria-label': 'Directory access request', 'data-request-id': item.requestId } },
    h('div', { class: 'card-title', text: 'Access outside the workspace' }),
    h('pre', { class: 'request-command', testid: 'directory-path', text: item.path }),
    h('div', { class: 'card-description', text: item.reason }),
  );
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const decide = (allowed: boolean, scope: 'once' | 'session' | undefined, label: string) => () => {
    ctx.post({ type: 'directoryDecision', requestId: item.requestId, allowed, ...(scope !== undefined ? { scope } : {}) });
    ctx.markAnswered(item.id, label);
  };
  card.appendChild(h('div', { class: 'button-row' },
    button('Allow once', 'directory-once', decide(true, 'once', 'Allowing once…'), { class: 'btn primary' }),
    button('Allow for this session', 'directory-session', decide(true, 'session', 'Allowing for this session…'), { class: 'btn secondary' }),
    button('Deny', 'directory-deny', decide(false, undefined, 'Denying…'), { class: 'btn secondary' }),
  ));
  return card;
}
