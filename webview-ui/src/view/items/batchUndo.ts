/** Undo on an applied batch's card: each file's undo result, why a file was kept, and the Undo button while it can be undone. */
import type { ItemOf } from '../../../../src/shared/chat/messages';
import type { UndoFileResult } from '../../../../src/protocol/undo';
import { MAX_UNDO_BATCHES, MAX_UNDO_SESSION_BYTES } from '../../../../src/protocol/undo-limits';
import { button, h } from '../dom';
import type { ItemContext } from './context';

const UNDO_TEXT = { reverted: 'reverted', stale: 'kept', failed: 'not reverted', skipped: 'not undone' } as const;

/** The file's undo result next to its apply result, or nothing before an undo. */
export function undoResultLabel(result: UndoFileResult | undefined): HTMLElement | null {
  if (result === undefined) return null;
  const title = result.reason ?? 'back as it was before the change';
  return h('span', { class: `result undo ${result.status}`, testid: 'batch-file-undo', text: UNDO_TEXT[result.status], title, attrs: { 'data-status': result.status } });
}

/** Under the file list of a decided batch: the reasons of files an undo left as they are, then Undo (or its progress). */
export function appendUndo(card: HTMLElement, item: ItemOf<'batch'>, ctx: ItemContext): HTMLElement {
  for (const r of item.undoResults ?? []) {
    if (r.status !== 'reverted') card.appendChild(h('div', { class: 'card-note', testid: 'batch-undo-note', text: r.reason ?? `${r.path} was not reverted` }));
  }
  const answered = ctx.answered.get(item.id);
  if (answered !== undefined) {
    card.appendChild(h('div', { class: 'request-answered', text: answered }));
  } else if (ctx.undoable?.has(item.batchId) === true) {
    const undo = () => {
      ctx.post({ type: 'undoBatch', batchId: item.batchId });
      ctx.markAnswered(item.id, 'Undoing…');
    };
    const title = 'Put the applied files back as they were before these changes (files changed since are kept)';
    card.appendChild(h('div', { class: 'button-row' }, button('Undo', 'batch-undo', undo, { class: 'btn secondary', title })));
  } else {
    const why = whyNoUndo(item, ctx);
    if (why !== undefined) card.appendChild(h('div', { class: 'card-note', testid: 'batch-undo-unavailable', text: why }));
  }
  return card;
}

/**
 * Why a card that wrote files offers no Undo: the runtime's reason, or (when the runtime was asked) that the batch is
 * no longer kept. Nothing when nothing was written or the card already shows an undo's results.
 */
function whyNoUndo(item: ItemOf<'batch'>, ctx: ItemContext): string | undefined {
  if (item.undoResults !== undefined || !(item.results ?? []).some((r) => r.status === 'applied')) return undefined;
  const known = ctx.undoUnavailable;
  if (known === undefined) return undefined;
  return known.reasons.get(item.batchId) ?? (known.listed ? `No longer kept for undo (a chat keeps at most its last ${MAX_UNDO_BATCHES} applied batches, ${MAX_UNDO_SESSION_BYTES / 1024 / 1024} MiB in all).` : undefined);
}
