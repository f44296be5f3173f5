/**
 * Keyboard answers on a request card (permission, directory access, plan): `1`..`n` press the card's buttons in the
 * order shown, Escape presses the safe one (Deny), Tab moves between the buttons as usual (nothing is trapped). The
 * keys only act while focus is inside the card and never from a text box (the prompt box or the card's own note).
 * The key is shown on each button (CSS draws `data-key`) and announced with `aria-keyshortcuts`.
 */
import { h } from '../dom';

/** Keys pressed this soon after the card took focus by itself are ignored: they were meant for what had focus before. */
export const ARM_DELAY_MS = 400;

const armedAt = new WeakMap<HTMLElement, number>();

function isTextField(el: EventTarget | null): boolean {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement || (el instanceof HTMLElement && el.isContentEditable);
}

/** Numbers the buttons, adds the hint line and handles the keys. `escape`: the button Escape presses. */
export function wireCardKeys(card: HTMLElement, buttons: readonly HTMLButtonElement[], escape: HTMLButtonElement | undefined, hint: string): void {
  buttons.forEach((b, i) => {
    b.dataset.key = String(i + 1);
    b.setAttribute('aria-keyshortcuts', b === escape ? `${i + 1} Escape` : String(i + 1));
  });
  card.appendChild(h('div', { class: 'key-hint while-focused', testid: 'key-hint', text: hint }));
  card.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing || isTextField(ev.target)) return;
    const early = Date.now() < (armedAt.get(card) ?? 0);
    const digit = /^[1-9]$/.test(ev.key) ? buttons[Number(ev.key) - 1] : undefined;
    const target = digit ?? (ev.key === 'Escape' ? escape : undefined);
    if (early && (target !== undefined || ev.key === 'Enter' || ev.key === ' ')) {
      ev.preventDefault(); // typed for the prompt box a moment ago, not an answer
      return;
    }
    if (target === undefined || target.disabled || !target.isConnected) return;
    ev.preventDefault();
    ev.stopPropagation();
    target.click();
  });
}

/** Whether a newly shown card may take the focus: the panel has it, and the user is not in the middle of typing. */
export function mayTakeFocus(doc: Document = document): boolean {
  if (!doc.hasFocus()) return false; // the editor or another view has it
  const active = doc.activeElement;
  if (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) return active.value.trim() === '';
  return true;
}

/** Focus `target` (the card's primary button) once the card is in the document; keys are armed a moment later. */
export function takeFocus(card: HTMLElement, target: HTMLElement): void {
  requestAnimationFrame(() => {
    if (!card.isConnected || !mayTakeFocus()) return;
    armedAt.set(card, Date.now() + ARM_DELAY_MS);
    target.focus({ preventScroll: true });
  });
}
