/** User prompts, assistant markdown, errors and notices. */
import { errorActions } from '../../../../src/shared/chat/errorActions';
import { button } from '../dom';
import type { ItemOf } from '../../../../src/shared/chat/messages';
import { h } from '../dom';
import { renderMarkdown } from '../markdown';
import type { ItemContext } from './context';

export function contextChipLabel(chip: { kind: string; path: string; startLine?: number; endLine?: number }): string {
  const name = chip.path.split('/').pop() ?? chip.path;
  if (chip.kind !== 'selection' || chip.startLine === undefined) return name;
  return chip.endLine !== undefined && chip.endLine !== chip.startLine ? `${name}:${chip.startLine}-${chip.endLine}` : `${name}:${chip.startLine}`;
}

export function renderUser(item: ItemOf<'user'>, ctx: ItemContext): HTMLElement {
  const chips = item.context.length === 0 ? null : h('div', { class: 'chips' }, ...item.context.map((c) =>
    h('span', { class: 'chip', title: c.path, text: contextChipLabel(c), on: { click: () => ctx.post({ type: 'openFile', path: c.path, line: c.startLine }) } }),
  ));
  return h('div', { class: `msg user${item.failed === true ? ' failed' : ''}`, testid: 'user-message' },
    chips,
    h('div', { class: 'user-text', text: item.text }),
    item.failed === true ? h('div', { class: 'failed-note', text: 'Not sent.' }) : null,
  );
}

export function renderAssistant(item: ItemOf<'assistant'>, ctx: ItemContext): HTMLElement {
  const body = h('div', { class: 'markdown' });
  body.appendChild(renderMarkdown(item.text, ctx));
  return h('div', { class: `msg assistant${item.streaming ? ' streaming' : ''}`, testid: 'assistant-message', attrs: { 'aria-busy': String(item.streaming) } }, body);
}

/** The message, the remedy, and when the error names the setting that fixes it, that fix's buttons (first one primary). */
export function renderError(item: ItemOf<'error'>, ctx: ItemContext): HTMLElement {
  const actions = item.fix ? errorActions(item.fix) : [];
  return h('div', { class: 'msg error', testid: 'error-message', attrs: { role: 'alert' } },
    h('div', { class: 'error-text' }, h('span', { class: 'icon', text: '⚠ ', attrs: { 'aria-hidden': 'true' } }), item.message),
    item.remedy !== undefined && item.remedy !== '' ? h('div', { class: 'remedy', testid: 'error-remedy', text: item.remedy }) : null,
    actions.length === 0 ? null : h('div', { class: 'button-row', testid: 'error-actions' },
      ...actions.map((a, i) => button(a.label, `error-action-${a.kind}`, () => ctx.post({ type: 'errorAction', kind: a.kind, configKey: a.configKey }), {
        class: i === 0 ? 'btn primary small' : 'btn secondary small',
      })),
    ),
  );
}

export function renderNotice(item: ItemOf<'notice'>): HTMLElement {
  return h('div', { class: 'msg notice', testid: 'notice', text: item.text });
}
