/** A compact card per tool call: label, one-line args, status, duration; its permission answer; output collapsed. */
import type { ItemOf } from '../../../../src/shared/chat/messages';
import { toolLabelParts } from '../../../../src/shared/chat/model/toolLabels';
import { formatDuration, h } from '../dom';
import { pathParts } from '../pathLabel';
import type { ItemContext } from './context';

type ToolItem = ItemOf<'tool'>;
type Decision = NonNullable<ToolItem['decisions']>[number];

const STATUS_ICON: Record<ToolItem['status'], string> = { running: '◌', success: '✓', failure: '✗', cancelled: '⊘' };
const STATUS_LABEL: Record<ToolItem['status'], string> = { running: 'running', success: 'succeeded', failure: 'failed', cancelled: 'cancelled' };
/** In batch mode the file tool's own success only means "proposed": the icon follows the batch decision. */
const CHANGE_ICON: Record<NonNullable<ToolItem['change']>, string> = { proposed: '◇', applied: '✓', rejected: '⊘', stale: '!', failed: '✗' };
const CHANGE_LABEL: Record<NonNullable<ToolItem['change']>, string> = {
  proposed: 'proposed, waiting for your decision',
  applied: 'applied',
  rejected: 'rejected, not written',
  stale: 'not written: the file changed on disk since the proposal',
  failed: 'not written: the write failed',
};
const CHANGE_CLASS: Record<NonNullable<ToolItem['change']>, string> = { proposed: 'proposed', applied: 'success', rejected: 'cancelled', stale: 'failure', failed: 'failure' };

export function decisionText(d: Decision): string {
  if (d.kind === 'directory') {
    const folder = d.path ?? 'the folder';
    return d.outcome === 'allowed' ? `Access to ${folder} allowed` : d.outcome === 'denied' ? `Access to ${folder} denied` : 'Stopped before you answered';
  }
  if (d.outcome === 'cancelled') return 'Stopped before you answered';
  if (d.outcome === 'denied') return d.alternative !== undefined ? `Denied; suggested: ${d.alternative}` : 'Denied';
  return d.scope === 'always' ? 'Always allowed' : d.scope === 'session' ? 'Allowed for this session' : 'Allowed once';
}

function decisionLines(item: ToolItem): HTMLElement | null {
  const decisions = item.decisions ?? [];
  const lines = decisions.map((d) =>
    h('div', { class: `tool-decision ${d.outcome}`, testid: `${d.kind}-resolved`, text: decisionText(d), title: decisionText(d), attrs: { 'data-status': d.outcome } }),
  );
  // Stopped while it ran: said here, so the run needs no separate "Stopped." line.
  if (item.status === 'cancelled' && !decisions.some((d) => d.outcome === 'cancelled')) {
    lines.push(h('div', { class: 'tool-decision cancelled', testid: 'tool-stopped', text: 'Stopped' }));
  }
  return lines.length === 0 ? null : h('div', { class: 'tool-decisions' }, ...lines);
}

export function renderToolCard(item: ToolItem, ctx: ItemContext): HTMLElement {
  const refused = (item.decisions ?? []).find((d) => d.outcome !== 'allowed');
  const shown = refused?.outcome === 'denied' ? { icon: '✗', cls: 'failure', label: 'denied, not run' }
    : refused?.outcome === 'cancelled' ? { icon: '⊘', cls: 'cancelled', label: 'stopped before it ran' }
    : item.change !== undefined && item.status !== 'running' ? { icon: CHANGE_ICON[item.change], cls: CHANGE_CLASS[item.change], label: CHANGE_LABEL[item.change] }
    : { icon: STATUS_ICON[item.status], cls: item.status, label: STATUS_LABEL[item.status] };
  const details = h('details', { class: `tool-card ${item.status}`, testid: 'tool-card', attrs: { 'data-status': item.status, 'data-tool': item.toolName, ...(item.change !== undefined ? { 'data-change': item.change } : {}) } });
  details.open = ctx.expandedTools.has(item.id);
  details.addEventListener('toggle', () => {
    if (details.open) ctx.expandedTools.add(item.id);
    else ctx.expandedTools.delete(item.id);
  });
  const label = toolLabelParts(item);
  const tooltip = [`${item.toolName}: ${shown.label}`, item.path ?? item.argsSummary].filter((t) => t !== '').join('\n');
  const summary = h('summary', { class: 'tool-summary', title: tooltip },
    h('span', { class: 'tool-line' },
      h('span', { class: `tool-status ${shown.cls}`, text: shown.icon, attrs: { 'aria-label': shown.label } }),
      label.path !== undefined
        ? h('span', { class: 'tool-name path-label' }, h('span', { class: 'tool-verb', text: `${label.text} ` }), ...pathParts(label.path))
        : h('span', { class: 'tool-name', text: label.text }),
      label.path !== undefined ? null : h('span', { class: 'tool-args', text: item.argsSummary }),
      item.durationMs !== undefined ? h('span', { class: 'tool-duration', text: formatDuration(item.durationMs) }) : null,
    ),
    decisionLines(item),
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
