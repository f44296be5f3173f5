/**
 * The `@` suggestion list under the prompt box: typing `@` and part of a path asks the extension for matching
 * workspace files (debounced; only the answer to the latest question is shown). Up/Down move, Enter or Tab choose,
 * Escape closes; a click chooses too. The prompt box stays focused throughout (a combobox with a listbox).
 */
import type { FromWebviewInput, ToWebview } from '../../../src/shared/chat/messages';
import { insertMention, isMentionable, mentionAtCaret } from '../model/mentions';
import { h } from './dom';
import { pathLabel } from './pathLabel';

/** Wait this long after the last key before asking (a fast typist sends one question, not one per letter). */
export const FIND_FILES_DEBOUNCE_MS = 120;
const LIST_ID = 'mention-suggestions';

type FileMatches = Extract<ToWebview, { type: 'fileMatches' }>;

export class MentionPicker {
  readonly root = h('ul', { class: 'mention-list', testid: 'mention-list', attrs: { id: LIST_ID, role: 'listbox', 'aria-label': 'Workspace files' } });
  private paths: string[] = [];
  private active = 0;
  private open = false;
  private requestId = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The query the shown list answers (a new one keeps the old list until its answer arrives). */
  private lastQuery: string | undefined;

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly post: (m: FromWebviewInput) => void,
    /** The text changed by a choice (chips and the saved draft follow it). */
    private readonly onChosen: () => void,
  ) {
    this.root.hidden = true;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', LIST_ID);
    input.setAttribute('aria-expanded', 'false');
    // mousedown, not click: choosing must not take the focus from the prompt box
    this.root.addEventListener('mousedown', (ev) => {
      const option = (ev.target as HTMLElement).closest<HTMLElement>('[data-index]');
      ev.preventDefault();
      if (option !== null) this.choose(Number(option.dataset.index));
    });
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** The text or caret moved: ask for files when the caret is in a mention, close the list otherwise. */
  update(): void {
    const at = mentionAtCaret(this.input.value, this.input.selectionStart ?? this.input.value.length);
    if (at === undefined || this.input.selectionStart !== this.input.selectionEnd) {
      this.close();
      return;
    }
    if (at.query === this.lastQuery) return;
    this.lastQuery = at.query;
    clearTimeout(this.timer);
    const requestId = ++this.requestId;
    this.timer = setTimeout(() => this.post({ type: 'findFiles', requestId, query: at.query }), FIND_FILES_DEBOUNCE_MS);
  }

  /** The extension's answer; ignored unless it answers the latest question and the caret is still in a mention. */
  receive(m: FileMatches): void {
    if (m.requestId !== this.requestId || this.lastQuery === undefined) return;
    this.paths = m.paths.filter(isMentionable);
    this.active = 0;
    this.render(m.error);
  }

  /** Keys while the list is open; true when the key was used (the prompt box must not also act on it). */
  handleKey(ev: KeyboardEvent): boolean {
    if (!this.open || ev.isComposing) return false;
    const n = this.paths.length;
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
      if (n > 0) this.highlight((this.active + (ev.key === 'ArrowDown' ? 1 : n - 1)) % n);
    } else if ((ev.key === 'Enter' || ev.key === 'Tab') && !ev.shiftKey && n > 0) {
      this.choose(this.active);
    } else if (ev.key === 'Escape') {
      this.close();
    } else {
      return false;
    }
    ev.preventDefault();
    ev.stopPropagation();
    return true;
  }

  close(): void {
    clearTimeout(this.timer);
    this.requestId++; // an answer still on its way is for a list no longer wanted
    this.lastQuery = undefined;
    this.open = false;
    this.paths = [];
    this.root.hidden = true;
    this.root.replaceChildren();
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }

  private render(error: string | undefined): void {
    const rows = this.paths.map((p, i) =>
      h('li', { class: 'mention-option', testid: 'mention-option', attrs: { id: `${LIST_ID}-${i}`, role: 'option', 'data-index': String(i), 'aria-selected': 'false', 'data-path': p } }, pathLabel(p)),
    );
    const empty = error ?? (rows.length === 0 ? 'No matching files' : undefined);
    this.root.replaceChildren(...rows);
    if (empty !== undefined) this.root.appendChild(h('li', { class: `mention-empty${error !== undefined ? ' error' : ''}`, testid: 'mention-empty', text: empty, attrs: { role: 'presentation' } }));
    this.open = true;
    this.root.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (rows.length > 0) this.highlight(0);
  }

  private highlight(index: number): void {
    this.active = index;
    this.root.querySelectorAll('[role="option"]').forEach((el, i) => el.setAttribute('aria-selected', String(i === index)));
    const option = this.root.querySelector<HTMLElement>(`#${LIST_ID}-${index}`);
    if (option === null) return;
    this.input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  private choose(index: number): void {
    const path = this.paths[index];
    const at = mentionAtCaret(this.input.value, this.input.selectionStart ?? this.input.value.length);
    if (path === undefined || at === undefined) return this.close();
    const next = insertMention(this.input.value, at, path);
    this.input.value = next.text;
    this.input.setSelectionRange(next.caret, next.caret);
    this.close();
    this.input.focus();
    this.onChosen();
  }
}
