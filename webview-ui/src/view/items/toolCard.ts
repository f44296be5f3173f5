/** A compact card per tool call: name, one-line args, status, duration; output collapsed by default. */
import type { ItemOf } from '../../messages';
import { formatDuration, h } from '../dom';
import type { ItemContext } from './context';

const STATUS_ICON: Record<ItemOf<'tool'>['status'], string> = { running: '◌', success: '✓', failure: '✗', cancelled: '⊘' };
const STATUS_LABEL: Record<ItemOf<'tool'>['status'], string> = { running: 'running', success: 'succeeded', failure: 'failed', cancelled: 'cancelled' };

export function renderToolCard(item: ItemOf<'tool'>, ctx: ItemContext): HTMLElement {
  const details = h('details', { class: `tool-card ${item.status}`, testid: 'tool-card', attrs: { 'data-status': item.status, 'data-tool': item.toolName } });
  details.open = ctx.expandedTools.has(item.id);
  details.addEventListener('toggle', () => {
    if (details.open) ctx.expandedTools.add(item.id);
    else ctx.expandedTools.delete(item.id);
  });
  const summary = h('summary', { class: 'tool-summary', title: `${item.toolName} ${STATUS_LABEL[item.status]}` },
    h('span', { class: `tool-status ${item.status}`, text: STATUS_ICON[item.status], attrs: { 'aria-label': STATUS_LABEL[item.status] } }),
    h('span', { class: 'tool-name', text: item.toolName }),
    h('span', { class: 'tool-args', text: item.argsSummary, title: item.argsSummary }),
    item.durationMs !== undefined ? h('span', { class: 'tool-duration', text: formatDuration(item.durationMs) }) : null,
  );
  details.appendChild(summary);
  // The output is only built when the card is open: long outputs cost nothing while collapsed.
  const fillBody = () => {
    if (details.querySelector('.tool-body') !== null) return;
    const body = h('div', { class: 'tool-body' },
      item.outputTruncated ? h('div', { class: 'tool-truncated', text: '… earlier output omitted' }) : null,
      item.output !== '' ? h('pre', { class: 'tool-output', testid: 'tool-output', text: item.output }) : null,
      item.output === '' && item.error === undefined ? h('div', { class: 'tool-empty', text: item.status === 'running' ? 'No output yet.' : 'No output.' }) : null,
      item.error !== undefined ? h('div', { class: 'tool-error', text: item.error }) : null,
    );
    details.appendChild(body);
  };
  if (details.open) fillBody();
  details.addEventListener('toggle', () => {
    if (details.open) fillBody();
  });
  return details;
}
