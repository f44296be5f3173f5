/** A change batch: its files with kind badges and +/− counts, Review / Accept / Reject, then per-file results. */
import type { ChangeResult } from '../../../../src/protocol/records';
import type { ItemOf } from '../../../../src/shared/chat/messages';
import { button, h } from '../dom';
import { pathParts } from '../pathLabel';
import { appendUndo, undoResultLabel } from './batchUndo';
import type { ItemContext } from './context';

const KIND_LABEL = { create: 'A', modify: 'M', delete: 'D' } as const;
const KIND_TITLE = { create: 'created', modify: 'modified', delete: 'deleted' } as const;
const RESULT_TEXT = { applied: 'applied', rejected: 'rejected', stale: 'changed on disk', failed: 'failed' } as const;
/** The longer reason, shown on hover (on a narrow side bar the label gives way to the file name and is cut short). */
const RESULT_DETAIL = { applied: 'written to disk', rejected: 'not written: rejected', stale: 'not written: the file changed on disk since the proposal', failed: 'not written: the write failed' } as const;

/** The editor's keybindings for a batch under review (package.json), as this platform writes them. */
function decisionKeys(): { accept: string; reject: string } {
  const mac = /Mac/.test(navigator.userAgent);
  return mac ? { accept: '⌘⌥Y', reject: '⌘⌥N' } : { accept: 'Ctrl+Alt+Y', reject: 'Ctrl+Alt+N' };
}

/** `2 of 3 hunks` when only some hunks of an undecided file are kept in the diff; nothing when the whole file is. */
function hunkTally(tally: { kept: number; total: number } | undefined): HTMLElement | null {
  if (!tally || tally.kept === tally.total) return null;
  const title = `${tally.total - tally.kept} of the file's ${tally.total} hunks rejected in the diff: accepting writes the other ${tally.kept}`;
  return h('span', { class: 'hunk-tally', testid: 'batch-file-hunks', text: `${tally.kept} of ${tally.total} hunks`, title });
}

/** The result badge; a file written in part says how much (`1 of 2 hunks`) in place of `applied`. */
function resultBadge(result: ChangeResult): HTMLElement {
  const partial = result.status === 'applied' && result.hunks && result.hunks.applied.length < result.hunks.total ? result.hunks : undefined;
  const text = partial ? `${partial.applied.length} of ${partial.total} hunks` : RESULT_TEXT[result.status];
  const title = partial ? `written to disk: ${partial.applied.length} of the file's ${partial.total} hunks, the others were rejected` : (result.error ?? RESULT_DETAIL[result.status]);
  return h('span', { class: `result ${result.status}${partial ? ' partial' : ''}`, testid: 'batch-file-result', text, title, attrs: { 'data-status': result.status } });
}

export function renderBatchCard(item: ItemOf<'batch'>, ctx: ItemContext): HTMLElement {
  const results = new Map((item.results ?? []).map((r) => [r.changeId, r]));
  const undone = new Map((item.undoResults ?? []).map((r) => [r.changeId, r]));
  const decided = item.status === 'decided';
  const answered = ctx.answered.get(item.id);
  const waiting = item.status === 'open';
  const title = decided ? 'Changes decided' : 'Proposed changes';
  const card = h('div', { class: `card batch-card ${item.status}`, testid: 'batch-card', attrs: { 'data-batch-id': item.batchId, 'data-status': item.status } },
    h('div', { class: 'card-title' }, title, h('span', { class: 'badge', text: String(item.files.length), title: `${item.files.length} file(s)` })),
    waiting ? h('div', { class: 'card-note', testid: 'batch-waiting', text: 'You can decide when the agent finishes' }) : null,
  );
  const list = h('ul', { class: 'batch-files' });
  const marked = decided ? undefined : ctx.batchHunks.get(item.batchId);
  for (const f of item.files) {
    const result = results.get(f.changeId);
    const review = h('a', { class: 'file-link path-label', testid: 'batch-review-file', title: decided ? `Open ${f.path}` : `Review ${f.path}`, attrs: { role: 'link', tabindex: '0' } }, ...pathParts(f.path));
    const open = () => (decided ? ctx.post({ type: 'openFile', path: f.path }) : ctx.post({ type: 'reviewBatch', batchId: item.batchId, changeId: f.changeId }));
    review.addEventListener('click', open);
    review.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') open();
    });
    list.appendChild(h('li', { class: 'batch-file', testid: 'batch-file', attrs: { 'data-change-id': f.changeId, 'data-kind': f.kind } },
      h('span', { class: `kind-badge ${f.kind}`, text: KIND_LABEL[f.kind], title: KIND_TITLE[f.kind] }),
      review,
      h('span', { class: 'counts' },
        h('span', { class: 'added', text: `+${f.additions}` }),
        h('span', { class: 'removed', text: `−${f.deletions}` }),
      ),
      decided ? null : hunkTally(marked?.get(f.changeId)),
      result !== undefined
        ? resultBadge(result)
        : null,
      undoResultLabel(undone.get(f.changeId)),
    ));
  }
  card.appendChild(list);
  if (marked !== undefined && marked.size > 0) {
    card.appendChild(h('div', { class: 'card-note', testid: 'batch-hunks-note', text: 'Hunks rejected in the diff are left out: accepting writes only the kept ones.' }));
  }
  if (decided) return appendUndo(card, item, ctx);
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
    return card;
  }
  const why = waiting ? 'Available when the agent finishes: it may still change these files' : undefined;
  const decide = (decision: 'accept_all' | 'reject_all', label: string) => () => {
    ctx.post({ type: 'decideBatch', batchId: item.batchId, decision });
    ctx.markAnswered(item.id, label);
  };
  const keys = decisionKeys();
  const review = button('Review', 'batch-review', () => ctx.post({ type: 'reviewBatch', batchId: item.batchId }), { class: 'btn primary', title: 'Open the changes in a diff editor' });
  card.appendChild(h('div', { class: 'button-row' },
    review,
    button('Accept all', 'batch-accept-all', decide('accept_all', 'Applying all changes…'), { class: 'btn secondary', disabled: waiting, title: why ?? `Apply every file (${keys.accept})` }),
    button('Reject all', 'batch-reject-all', decide('reject_all', 'Rejecting all changes…'), { class: 'btn secondary', disabled: waiting, title: why ?? `Write none of them (${keys.reject})` }),
    button('Accept selected…', 'batch-accept-selected', () => ctx.post({ type: 'pickBatchFiles', batchId: item.batchId }), { class: 'btn secondary', disabled: waiting, title: why ?? 'Choose the files to apply; the others are rejected' }),
  ));
  if (!waiting) {
    card.appendChild(h('div', { class: 'key-hint', testid: 'key-hint', text: `${keys.accept} accepts all · ${keys.reject} rejects all` }));
    ctx.claimFocus(item.id, card, review);
  }
  return card;
}
