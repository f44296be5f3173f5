/**
 * The prompt box: chips for the attached context and the `@` mentioned files, textarea (Enter sends, Shift+Enter
 * newline, `@` suggests workspace files), Send / Stop.
 */
import type { ContextChip, FromWebviewInput, ToWebview } from '../../../src/shared/chat/messages';
import { EARLY_SEND_ATTR, SEND_BUTTON, PROMPT_BOX_ATTRS, PROMPT_BOX_CLASS, PROMPT_BOX_SELECTOR, PROMPT_BOX_TESTID, type EarlySendState } from '../../../src/shared/chat/promptBox';
import { attachedMentions, extractMentions, mentionText, removeMention } from '../model/mentions';
import { button, h } from './dom';
import { contextChipLabel } from './items/messageItems';
import { MentionPicker } from './mentionPicker';
import { pathLabel } from './pathLabel';

export interface ComposerHooks {
  post(message: FromWebviewInput): void;
  /** A prompt is about to be sent: show it in the transcript. */
  onSend(prompt: { promptId: string; text: string; context: ContextChip[] }): void;
  /** `urgent`: save now (a sent prompt cleared the box; the panel may be hidden before a delayed save runs). */
  onDraftChange(urgent?: boolean): void;
}

export class Composer {
  readonly root: HTMLElement;
  private readonly chipsRow = h('div', { class: 'chips composer-chips', testid: 'context-chips' });
  /** The box the page carried (see src/extension/chat/webview-html.ts), adopted with what was typed in it, or a new one. */
  private readonly input: HTMLTextAreaElement;
  /** Whether the carried box had the focus, and where its caret was, before the panel moves it into place. */
  private readonly carriedFocus: { start: number; end: number } | undefined;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private chips: ContextChip[] = [];
  private running = false;
  private promptCounter = 0;
  private readonly picker: MentionPicker;
  /** What the chips row shows now (chips and mentions), to re-render only when it changes. */
  private chipsShown = '';

  constructor(private readonly hooks: ComposerHooks) {
    const carried = document.querySelector<HTMLTextAreaElement>(PROMPT_BOX_SELECTOR);
    this.input = carried ?? h('textarea', { class: PROMPT_BOX_CLASS, testid: PROMPT_BOX_TESTID, attrs: { ...PROMPT_BOX_ATTRS } });
    this.carriedFocus =
      carried !== null && document.activeElement === carried ? { start: carried.selectionStart, end: carried.selectionEnd } : undefined;
    this.picker = new MentionPicker(this.input, (m) => hooks.post(m), () => {
      this.renderChips();
      this.autosize();
      this.hooks.onDraftChange();
    });
    this.sendButton = button(SEND_BUTTON.label, SEND_BUTTON.testid, () => this.send(), { class: SEND_BUTTON.class, title: SEND_BUTTON.title });
    this.stopButton = button('Stop', 'stop', () => hooks.post({ type: 'abort' }), { class: 'btn secondary stop', title: 'Stop the running turn' });
    this.stopButton.hidden = true;
    this.input.addEventListener('keydown', (ev) => {
      if (this.picker.handleKey(ev)) return;
      if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        this.send();
      }
    });
    this.input.addEventListener('input', () => {
      this.autosize();
      this.picker.update();
      this.renderChips();
      this.hooks.onDraftChange();
    });
    // the caret moved without typing: the list follows it (open in a mention, closed outside)
    this.input.addEventListener('click', () => this.picker.update());
    this.input.addEventListener('keyup', (ev) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(ev.key)) this.picker.update();
    });
    this.input.addEventListener('blur', () => {
      this.picker.close();
      this.renderChips(); // a mention left half-typed is attached as it stands
    });
    this.root = h('div', { class: 'composer', testid: 'composer' },
      this.picker.root,
      this.chipsRow,
      h('div', { class: 'composer-row' }, this.input, h('div', { class: 'composer-buttons' }, this.sendButton, this.stopButton)),
    );
  }

  /**
   * Once the panel is in the document: the carried box gets its focus and caret back (moving it took them), shows
   * what was typed in it, and an Enter pressed in it before now sends that prompt.
   */
  adoptCarriedBox(): void {
    const early = this.input.getAttribute(EARLY_SEND_ATTR) as EarlySendState | null;
    this.input.removeAttribute(EARLY_SEND_ATTR); // the page's first script holds back no more Enters
    if (this.carriedFocus) {
      this.input.focus();
      this.input.setSelectionRange(this.carriedFocus.start, this.carriedFocus.end);
      this.picker.update(); // a mention typed meanwhile gets its suggestions
    }
    if (this.input.value !== '') {
      this.renderChips();
      this.autosize();
      this.hooks.onDraftChange();
    }
    if (early === 'send') this.send();
  }

  get draft(): string {
    return this.input.value;
  }

  get context(): readonly ContextChip[] {
    return this.chips;
  }

  setDraft(text: string): void {
    this.input.value = text;
    this.renderChips();
    this.autosize();
  }

  /** The extension's answer to the `@` suggestions' question. */
  fileMatches(m: Extract<ToWebview, { type: 'fileMatches' }>): void {
    this.picker.receive(m);
  }

  /** Put a text in the box (an example prompt), the cursor at its end. */
  fill(text: string): void {
    this.setDraft(text);
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
    this.hooks.onDraftChange();
  }

  focus(): void {
    this.input.focus();
  }

  setRunning(running: boolean): void {
    // Unchanged: no DOM write, so a run's start that Enter already showed costs the page no frame.
    if (running === this.running) return;
    this.running = running;
    this.root.classList.toggle('busy', running);
    this.sendButton.hidden = running;
    this.stopButton.hidden = !running;
    this.input.setAttribute('aria-busy', String(running));
  }

  setChips(chips: readonly ContextChip[]): void {
    this.chips = [...chips];
    this.renderChips();
  }

  addChip(chip: ContextChip): void {
    this.chips = [...this.chips.filter((c) => c.id !== chip.id), chip];
    this.renderChips();
    this.hooks.onDraftChange();
  }

  private removeChip(id: string): void {
    this.chips = this.chips.filter((c) => c.id !== id);
    this.renderChips();
    this.hooks.post({ type: 'removeContext', chipId: id });
    this.hooks.onDraftChange();
    this.input.focus();
  }

  /** × on a mention chip: the mention leaves the text too (the text is what is sent). */
  private removeMentionChip(path: string): void {
    this.input.value = removeMention(this.input.value, path);
    this.renderChips();
    this.autosize();
    this.hooks.onDraftChange();
    this.input.focus();
  }

  private renderChips(): void {
    const mentions = attachedMentions(this.input.value, document.activeElement === this.input ? (this.input.selectionStart ?? undefined) : undefined);
    // unchanged: keep the elements (a re-render between the mousedown and the click of × would lose the click)
    const shown = JSON.stringify([this.chips, mentions]);
    if (shown === this.chipsShown) return;
    this.chipsShown = shown;
    this.chipsRow.replaceChildren(
      ...this.chips.map((c) =>
        h('span', { class: 'chip', testid: 'context-chip', title: c.kind === 'selection' ? `Selection in ${c.path}` : c.path, attrs: { 'data-chip-id': c.id } },
          h('span', { class: 'chip-kind', text: c.kind === 'selection' ? '❝ ' : '▤ ', attrs: { 'aria-hidden': 'true' } }),
          contextChipLabel(c),
          button('×', 'context-chip-remove', () => this.removeChip(c.id), { class: 'chip-remove', title: `Remove ${contextChipLabel(c)}` }),
        ),
      ),
      ...mentions.map((p) =>
        h('span', { class: 'chip mention-chip', testid: 'mention-chip', title: `${mentionText(p)} is attached when you send`, attrs: { 'data-path': p } },
          h('span', { class: 'chip-kind', text: '@', attrs: { 'aria-hidden': 'true' } }),
          pathLabel(p),
          button('×', 'mention-chip-remove', () => this.removeMentionChip(p), { class: 'chip-remove', title: `Remove ${mentionText(p)} from the prompt` }),
        ),
      ),
    );
    this.chipsRow.hidden = this.chips.length === 0 && mentions.length === 0;
  }

  private send(): void {
    const text = this.input.value;
    if (this.running || text.trim() === '') return;
    const promptId = `p${Date.now().toString(36)}-${++this.promptCounter}`;
    const context = [...this.chips];
    // posted first: the extension and the runtime start on it while the panel draws the prompt
    this.hooks.post({ type: 'sendPrompt', promptId, text, context, mentions: extractMentions(text) });
    // Stop shows at once, in the frame that clears the box; a prompt refused before its run brings Send back (onError).
    this.setRunning(true);
    this.hooks.onSend({ promptId, text, context });
    this.input.value = '';
    this.chips = [];
    this.renderChips();
    this.autosize();
    this.hooks.onDraftChange(true);
  }

  /** Fit the box to its text (call once it is in the document: a detached box measures nothing). */
  autosize(): void {
    if (!this.input.isConnected) return;
    this.input.style.height = 'auto';
    // An empty box is as high as its rows and min-height make it: measuring it would force a layout for nothing (at
    // the panel's start, the whole page's first layout, done again by the next frame after the transcript is added).
    if (this.input.value === '') return;
    const borders = this.input.offsetHeight - this.input.clientHeight; // the box is border-box sized
    this.input.style.height = `${Math.min(this.input.scrollHeight + borders, 240)}px`;
  }
}
