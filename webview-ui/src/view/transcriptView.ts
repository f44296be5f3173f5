/**
 * The virtualized transcript: only items near the viewport are in the DOM. The window math lives in
 * model/virtualizer.ts; this file only measures, places and recycles elements, once per animation frame.
 */
import type { TranscriptItem } from '../../../src/shared/chat/messages';
import type { Changes } from '../../../src/shared/chat/model/transcriptReducer';
import { HeightIndex, captureAnchor, computeWindow, isAtBottom, restoreAnchor, type ScrollAnchor } from '../model/virtualizer';
import { h } from './dom';

const ESTIMATED_ITEM_HEIGHT = 72;
const OVERSCAN_PX = 800;
/** Ask for older items when the rendered window starts this close to the first loaded item. */
const NEAR_TOP_ITEMS = 10;

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
  /** Where to scroll in the next layout (items were put above the one the user reads). */
  private pendingAnchor: ScrollAnchor | undefined;
  private shownOnce = false;
  /** The viewport's height as last measured by the ResizeObserver (reading it in a frame would force a layout). */
  private viewportHeight = 0;
  /** scrollTop as the view last saw or set it (a different one in the same frame is the user's). */
  private knownTop = 0;
  /**
   * Extra pixels rendered above and below the viewport. None for the first frame of a new list (a restored chat
   * shows sooner); the margin comes back when the browser is idle.
   */
  private overscan = OVERSCAN_PX;

  constructor(
    private readonly items: () => readonly TranscriptItem[],
    private readonly indexOf: (id: string) => number | undefined,
    /** An item's element; given the element shown for it before, it may update that one in place and return it. */
    private readonly render: (item: TranscriptItem, previous: HTMLElement | undefined) => HTMLElement,
    /** The user reached the first loaded items (older ones may be waiting in the extension). */
    private readonly nearTop: () => void = () => undefined,
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
      this.overscan = 0;
      const widen = () => {
        this.overscan = OVERSCAN_PX;
        this.schedule();
      };
      if (typeof requestIdleCallback === 'function') requestIdleCallback(widen, { timeout: 500 });
      else setTimeout(widen, 100);
    } else if (changes.prepended !== undefined && changes.prepended > 0) {
      // Keep the item the user reads where it is: it moved down by the prepended items.
      // (Applied in the next layout, once the spacer above makes room for it.)
      const anchor = this.pinned ? undefined : captureAnchor(this.heights, this.root.scrollTop);
      this.remapHeights();
      if (anchor !== undefined) this.pendingAnchor = { ...anchor, index: anchor.index + changes.prepended };
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
        this.viewportHeight = this.root.clientHeight;
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
    // Layout is fresh here: reading the height costs nothing (in layout() after a change it would force one). A
    // scrollTop other than the one the last layout saw is the user's, made in this frame: theirs wins.
    if (this.pinned && Math.abs(this.root.scrollTop - this.knownTop) < 1) this.setScrollTop(this.root.scrollHeight - this.root.clientHeight);
    if (!changed) return;
    if (anchor !== undefined) this.setScrollTop(restoreAnchor(this.heights, anchor));
    this.schedule();
  }

  private setScrollTop(top: number): void {
    if (Math.abs(this.root.scrollTop - top) < 1) return;
    this.root.scrollTop = top;
    this.ownScrollTop = this.root.scrollTop; // as the browser clamped it
    this.knownTop = this.ownScrollTop;

  }

  private layout(): void {
    this.frame = 0;
    const items = this.items();
    if (this.heights.count !== items.length) this.heights.setCount(items.length);
    const viewport = this.viewportHeight > 0 ? this.viewportHeight : this.root.clientHeight;
    if (this.pinned) this.setScrollTop(Math.max(0, this.heights.total() - viewport));
    this.knownTop = this.root.scrollTop;
    const anchored = this.pendingAnchor;
    this.pendingAnchor = undefined;
    const top = anchored !== undefined ? restoreAnchor(this.heights, anchored) : this.root.scrollTop;
    const win = computeWindow(this.heights, top, viewport, this.overscan);

    const wanted: HTMLElement[] = [];
    const keep = new Set<string>();
    /**
     * Only elements updated in place (a streamed answer): the ResizeObserver pins the view once the browser laid them
     * out, instead of a forced layout here on every delta. Added or removed elements still pin here.
     */
    let inPlace = false;
    let restructured = false;
    for (let i = win.start; i < win.end; i++) {
      const item = items[i];
      if (item === undefined) continue;
      keep.add(item.id);
      let r = this.rendered.get(item.id);
      if (r === undefined || this.dirty.has(item.id) || r.item !== item) {
        const previous = r?.el.firstElementChild instanceof HTMLElement ? r.el.firstElementChild : undefined;
        const inner = this.render(item, previous);
        if (r !== undefined && inner === previous) {
          inPlace = true;
          r.item = item; // updated in place: same element, still observed
          wanted.push(r.el);
          continue;
        }
        const el = this.wrap(item, inner);
        restructured = true;
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
      restructured = true;
    }
    this.reconcile(wanted);
    if (!this.shownOnce && wanted.length > 0) {
      this.shownOnce = true;
      performance.mark('agentcli:transcript-shown'); // read by bench/editor-bench.ts
    }
    this.topSpacer.style.height = `${win.padTop}px`;
    this.bottomSpacer.style.height = `${win.padBottom}px`;
    if (anchored !== undefined) this.setScrollTop(top);
    if (this.pinned && (restructured || !inPlace)) this.setScrollTop(this.root.scrollHeight - viewport);
    if (items.length > 0 && win.start <= NEAR_TOP_ITEMS) this.nearTop();
  }

  private wrap(item: TranscriptItem, inner: HTMLElement): HTMLElement {
    const el = h('div', { class: `item item-${item.kind}` });
    el.dataset.itemId = item.id;
    el.appendChild(inner);
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
