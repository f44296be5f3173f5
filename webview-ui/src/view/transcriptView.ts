/**
 * The virtualized transcript: only items near the viewport are in the DOM. The window math lives in
 * model/virtualizer.ts; this file only measures, places and recycles elements, once per animation frame.
 */
import type { TranscriptItem } from '../../../src/shared/chat/messages';
import type { Changes } from '../../../src/shared/chat/model/transcriptReducer';
import { HeightIndex, captureAnchor, computeWindow, isAtBottom, restoreAnchor } from '../model/virtualizer';
import { h } from './dom';

const ESTIMATED_ITEM_HEIGHT = 72;
const OVERSCAN_PX = 800;

interface Rendered {
  el: HTMLElement;
  item: TranscriptItem;
}

export class TranscriptView {
  readonly root: HTMLElement;
  private readonly topSpacer = h('div', { class: 'spacer' });
  private readonly list = h('div', { class: 'transcript-list', attrs: { role: 'log', 'aria-live': 'polite' } });
  private readonly bottomSpacer = h('div', { class: 'spacer' });
  private heights = new HeightIndex(ESTIMATED_ITEM_HEIGHT);
  /** Measured heights by item id, to re-map them when items move (the height index is by position). */
  private readonly measuredById = new Map<string, number>();
  private readonly rendered = new Map<string, Rendered>();
  private readonly dirty = new Set<string>();
  private readonly resizeObserver: ResizeObserver;
  private frame = 0;
  /** Follow new content; cleared when the user scrolls up, set again when they reach the bottom. */
  private pinned = true;
  /**
   * Where the view last scrolled itself. A scroll event that lands there is ours; any other is the user's. (A flag
   * set on every programmatic scroll would be wrong: a clamped or unchanged scrollTop fires no event, and a user
   * scroll coalesced with ours into one event would be swallowed, leaving the view pinned against the user.)
   */
  private ownScrollTop: number | undefined;

  constructor(
    private readonly items: () => readonly TranscriptItem[],
    private readonly indexOf: (id: string) => number | undefined,
    private readonly render: (item: TranscriptItem) => HTMLElement,
  ) {
    this.root = h('div', { class: 'transcript', testid: 'transcript', attrs: { tabindex: '0' } }, this.topSpacer, this.list, this.bottomSpacer);
    this.root.addEventListener('scroll', () => this.onScroll(), { passive: true });
    this.resizeObserver = new ResizeObserver((entries) => this.onResize(entries));
    this.resizeObserver.observe(this.root);
  }

  /** Apply reducer changes: re-render touched items if visible, grow or reset the list. */
  update(changes: Changes): void {
    if (changes.reset) {
      for (const r of this.rendered.values()) this.resizeObserver.unobserve(r.el);
      this.rendered.clear();
      this.list.replaceChildren();
      this.heights.setCount(0);
      this.measuredById.clear();
      this.pinned = true;
    } else if (changes.reordered === true) {
      this.remapHeights();
    }
    for (const id of changes.ids) this.dirty.add(id);
    this.schedule();
  }

  /** Re-render one item (view-only state changed, e.g. an answered card). */
  refresh(id: string): void {
    this.dirty.add(id);
    this.schedule();
  }

  private remapHeights(): void {
    const items = this.items();
    this.heights = new HeightIndex(ESTIMATED_ITEM_HEIGHT);
    this.heights.setCount(items.length);
    items.forEach((item, i) => {
      const known = this.measuredById.get(item.id);
      if (known !== undefined) this.heights.setHeight(i, known);
    });
  }

  scrollToBottom(): void {
    this.pinned = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(() => this.layout());
  }

  private onScroll(): void {
    const own = this.ownScrollTop !== undefined && Math.abs(this.root.scrollTop - this.ownScrollTop) < 1;
    this.ownScrollTop = undefined;
    if (!own) this.pinned = isAtBottom(this.root.scrollTop, this.root.clientHeight, this.root.scrollHeight);
    this.schedule();
  }

  private onResize(entries: ResizeObserverEntry[]): void {
    const anchor = this.pinned ? undefined : captureAnchor(this.heights, this.root.scrollTop);
    let changed = false;
    for (const entry of entries) {
      if (entry.target === this.root) {
        changed = true;
        continue;
      }
      const id = (entry.target as HTMLElement).dataset.itemId;
      const i = id === undefined ? undefined : this.indexOf(id);
      const height = entry.borderBoxSize[0]?.blockSize ?? entry.contentRect.height;
      // A hidden webview reports zero sizes: keep the last real measurement.
      if (i === undefined || id === undefined || height <= 0) continue;
      this.measuredById.set(id, height);
      if (this.heights.setHeight(i, height) !== 0) changed = true;
    }
    if (!changed) return;
    if (anchor !== undefined) this.setScrollTop(restoreAnchor(this.heights, anchor));
    this.schedule();
  }

  private setScrollTop(top: number): void {
    if (Math.abs(this.root.scrollTop - top) < 1) return;
    this.root.scrollTop = top;
    this.ownScrollTop = this.root.scrollTop; // as the browser clamped it

  }

  private layout(): void {
    this.frame = 0;
    const items = this.items();
    if (this.heights.count !== items.length) this.heights.setCount(items.length);
    const viewport = this.root.clientHeight;
    if (this.pinned) this.setScrollTop(Math.max(0, this.heights.total() - viewport));
    const win = computeWindow(this.heights, this.root.scrollTop, viewport, OVERSCAN_PX);

    const wanted: HTMLElement[] = [];
    const keep = new Set<string>();
    for (let i = win.start; i < win.end; i++) {
      const item = items[i];
      if (item === undefined) continue;
      keep.add(item.id);
      let r = this.rendered.get(item.id);
      if (r === undefined || this.dirty.has(item.id) || r.item !== item) {
        const el = this.wrap(item);
        if (r !== undefined) {
          this.resizeObserver.unobserve(r.el);
          if (r.el.parentNode === this.list) r.el.replaceWith(el); // in place: later siblings do not move
        }
        r = { el, item };
        this.rendered.set(item.id, r);
        this.resizeObserver.observe(el);
      }
      wanted.push(r.el);
    }
    this.dirty.clear();
    for (const [id, r] of this.rendered) {
      if (keep.has(id)) continue;
      this.resizeObserver.unobserve(r.el);
      r.el.remove();
      this.rendered.delete(id);
    }
    this.reconcile(wanted);
    this.topSpacer.style.height = `${win.padTop}px`;
    this.bottomSpacer.style.height = `${win.padBottom}px`;
    if (this.pinned) this.setScrollTop(this.root.scrollHeight - viewport);
  }

  private wrap(item: TranscriptItem): HTMLElement {
    const el = h('div', { class: `item item-${item.kind}` });
    el.dataset.itemId = item.id;
    el.appendChild(this.render(item));
    return el;
  }

  /** Put `wanted` in order with as few moves as possible (moving a node would blur a focused input in it). */
  private reconcile(wanted: HTMLElement[]): void {
    let cursor = this.list.firstChild;
    for (const el of wanted) {
      if (el === cursor) {
        cursor = cursor.nextSibling;
        continue;
      }
      this.list.insertBefore(el, cursor);
    }
    while (cursor !== null) {
      const next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
  }
}
