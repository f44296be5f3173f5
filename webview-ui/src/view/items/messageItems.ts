/** User prompts, assistant markdown, errors and notices. */
import { errorActions } from '../../../../src/shared/chat/errorActions';
import { button } from '../dom';
import type { ItemOf } from '../../../../src/shared/chat/messages';
import { h } from '../dom';
import { extractMentions, mentionText } from '../../model/mentions';
import { pathLabel } from '../pathLabel';
import { renderMarkdown, StreamingMarkdown } from '../markdown';
import type { ItemContext } from './context';

export function contextChipLabel(chip: { kind: string; path: string; startLine?: number; endLine?: number }): string {
  const name = chip.path.split('/').pop() ?? chip.path;
  if (chip.kind !== 'selection' || chip.startLine === undefined) return name;
  return chip.endLine !== undefined && chip.endLine !== chip.startLine ? `${name}:${chip.startLine}-${chip.endLine}` : `${name}:${chip.startLine}`;
}

/** A chip in a sent prompt: opens its file on click or Enter. */
function sentChip(ctx: ItemContext, path: string, line: number | undefined, ...label: Array<Node | string>): HTMLElement {
  const open = () => ctx.post({ type: 'openFile', path, line });
  return h('span', { class: 'chip', title: `Open ${path}`, attrs: { role: 'link', tabindex: '0' }, on: { click: open, keydown: (ev) => ev.key === 'Enter' && open() } }, ...label);
}

export function renderUser(item: ItemOf<'user'>, ctx: ItemContext): HTMLElement {
  // what was attached: the context chips, and the files the text mentions with @
  const refused = new Set(item.refusedMentions ?? []);
  const mentions = extractMentions(item.text).map((p) =>
    refused.has(p)
      ? h('span', { class: 'chip refused', testid: 'refused-mention', title: `${mentionText(p)} was not attached`, attrs: { 'aria-label': `${mentionText(p)}, not attached` } }, h('span', { class: 'chip-kind', text: '@', attrs: { 'aria-hidden': 'true' } }), pathLabel(p))
      : sentChip(ctx, p, undefined, h('span', { class: 'chip-kind', text: '@', attrs: { 'aria-hidden': 'true' } }), pathLabel(p)),
  );
  const chips = item.context.length + mentions.length === 0 ? null : h('div', { class: 'chips', testid: 'sent-chips' },
    ...item.context.map((c) => sentChip(ctx, c.path, c.startLine, contextChipLabel(c))),
    ...mentions,
  );
  return h('div', { class: `msg user${item.failed === true ? ' failed' : ''}`, testid: 'user-message' },
    chips,
    h('div', { class: 'user-text', text: item.text }),
    item.failed === true ? h('div', { class: 'failed-note', text: 'Not sent.' }) : null,
  );
}

/** The streaming renderer of each shown answer that is still streaming (by its element). */
const streams = new WeakMap<HTMLElement, StreamingMarkdown>();

/**
 * An answer. While it streams, `previous` (its element from the last frame) is updated in place and returned: only
 * its last markdown block is rendered again. The final text is rendered whole once.
 */
export function renderAssistant(item: ItemOf<'assistant'>, ctx: ItemContext, previous?: HTMLElement): HTMLElement {
  const stream = previous === undefined ? undefined : streams.get(previous);
  if (item.streaming && stream !== undefined && previous !== undefined) {
    stream.update(item.text);
    return previous;
  }
  const body = h('div', { class: 'markdown' });
  const el = h('div', { class: `msg assistant${item.streaming ? ' streaming' : ''}`, testid: 'assistant-message', attrs: { 'aria-busy': String(item.streaming) } }, body);
  if (item.streaming) {
    const created = new StreamingMarkdown(body, ctx);
    created.update(item.text);
    streams.set(el, created);
  } else {
    body.appendChild(renderMarkdown(item.text, ctx));
  }
  return el;
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
