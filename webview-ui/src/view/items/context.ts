import type { FromWebviewInput } from '../../../../src/shared/chat/messages';
import type { MarkdownHooks } from '../markdown';

/** What item renderers may do: post to the extension and remember view-only state across re-renders. */
export interface ItemContext extends MarkdownHooks {
  post(message: FromWebviewInput): void;
  /** Tool cards the user expanded (kept while the card is out of the DOM). */
  expandedTools: Set<string>;
  /** Per undecided batch id, its files with rejected hunks (kept of total), from the diff review. */
  batchHunks: Map<string, ReadonlyMap<string, { kept: number; total: number }>>;
  /** Items the user already answered (label shown until the runtime confirms), by item id. */
  answered: Map<string, string>;
  /** Applied batches that can still be undone (the extension's `undoable`): their cards offer Undo. */
  undoable?: ReadonlySet<string>;
  /** Why an applied batch has no Undo, by batch id; `listed`: the runtime was asked (a batch it does not keep: no longer kept). */
  undoUnavailable?: { reasons: ReadonlyMap<string, string>; listed: boolean };
  /** Record an answer and re-render the item. */
  markAnswered(itemId: string, label: string): void;
  /** The user denied a permission with this alternative: keep it to show once the request is resolved. */
  noteAlternative(requestId: string, text: string): void;
  /**
   * A card waiting for an answer was rendered: the first time, it takes the focus (on `target`, its primary button)
   * when the panel has it and the user is not typing (cardKeys.ts).
   */
  claimFocus(itemId: string, card: HTMLElement, target: HTMLElement): void;
  /** Tell the extension a request card is on screen (once per request). */
  acknowledge(kind: 'permission' | 'directory', requestId: string): void;
}
