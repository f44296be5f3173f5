/** The top bar (model, modes, context meter, history, New chat) and the runtime status banner. */
import type { ContextUsage, FromWebviewInput, PanelState, RuntimeStatus } from '../../../src/shared/chat/messages';
import { append, button, h } from './dom';
import { SandboxIndicator } from './sandboxIndicator';

/** "New chat" on one line; when the model name would be cut short only its icon shows (the title still names it). */
function newChatButton(post: (m: FromWebviewInput) => void): HTMLButtonElement {
  const b = button('', 'new-chat', () => post({ type: 'newChat' }), { class: 'btn secondary small new-chat', title: 'New chat: start a new conversation' });
  b.setAttribute('aria-label', 'New chat');
  append(b, h('span', { class: 'new-chat-icon', text: '+', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'new-chat-label', text: 'New chat' }));
  return b;
}

/** A clock with a turning arrow: the history button's icon (an SVG built node by node, no markup parsed). */
function historyIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  for (const d of ['M2.5 8a5.5 5.5 0 1 0 1.6-3.9', 'M1.8 2.2v2.6h2.6', 'M8 4.8V8l2.2 1.6']) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', 'none');
    path.setAttribute('stroke', 'currentColor');
    path.setAttribute('stroke-width', '1.4');
    path.setAttribute('stroke-linecap', 'round');
    svg.appendChild(path);
  }
  return svg;
}

function historyButton(post: (m: FromWebviewInput) => void): HTMLButtonElement {
  const b = button('', 'history', () => post({ type: 'openHistory' }), { class: 'icon-button', title: 'Chat history: reopen or delete a past chat' });
  b.setAttribute('aria-label', 'Chat history');
  b.appendChild(historyIcon());
  return b;
}

/** 12345 → "12k"; 1500 → "1.5k"; 800 → "800". */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

/** The context meter's text, tooltip and level: "12k / 128k", "about 12,345 of 128,000 tokens (10%) …", high from 80 %. */
export function meterText(u: ContextUsage): { text: string; title: string; level: 'ok' | 'high' } {
  const used = u.usedTokens.toLocaleString('en-US');
  if (u.contextWindow === undefined) {
    return { text: `${shortTokens(u.usedTokens)} tok`, title: `Context: about ${used} tokens (the model's window is not known). Click to compact the conversation.`, level: 'ok' };
  }
  const share = u.usedTokens / u.contextWindow;
  const pct = Math.round(share * 100);
  return {
    text: `${shortTokens(u.usedTokens)} / ${shortTokens(u.contextWindow)}`,
    title: `Context: about ${used} of ${u.contextWindow.toLocaleString('en-US')} tokens (${pct}%). Click to compact the conversation.`,
    level: share >= 0.8 ? 'high' : 'ok',
  };
}

/** "exited with code 1" → "Exited with code 1". */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Header {
  readonly root: HTMLElement;
  private readonly modelButton: HTMLButtonElement;
  private readonly badges = h('span', { class: 'mode-badges', testid: 'mode-badges' });
  private readonly meter: HTMLButtonElement;
  private readonly sandbox = new SandboxIndicator();

  constructor(post: (m: FromWebviewInput) => void) {
    this.modelButton = button('…', 'model-button', () => post({ type: 'selectModel' }), { class: 'link-button', title: 'Select model' });
    this.meter = button('', 'context-meter', () => post({ type: 'compactContext' }), { class: 'link-button context-meter' });
    this.meter.hidden = true;
    this.root = h('div', { class: 'header' },
      this.modelButton,
      this.badges,
      this.sandbox.root,
      h('span', { class: 'header-spacer' }),
      this.meter,
      historyButton(post),
      newChatButton(post),
    );
    new ResizeObserver(() => this.fit()).observe(this.root);
  }

  /**
   * When the model link would be cut short, the header gives way step by step: first the history icon goes (the view's
   * title bar has History too), then New chat's label. The context meter and the sandbox shield always stay; past that
   * the model name is shortened with an ellipsis (the status bar and its tooltip carry it whole).
   */
  private fit(): void {
    const steps = ['no-history', 'compact'];
    this.root.classList.remove(...steps);
    const link = this.modelButton;
    for (const step of steps) {
      if (link.scrollWidth <= link.clientWidth) return;
      this.root.classList.add(step);
    }
  }

  /** The context meter; hidden until the conversation has something in it. */
  setUsage(usage: ContextUsage | null): void {
    this.meter.hidden = usage === null || usage.usedTokens === 0;
    if (usage !== null) {
      const m = meterText(usage);
      this.meter.textContent = m.text;
      this.meter.title = m.title;
      this.meter.setAttribute('aria-label', m.title);
      this.meter.dataset.level = m.level;
    }
    this.fit();
  }

  setState(state: PanelState): void {
    this.modelButton.textContent = `${state.provider} · ${state.model}`;
    this.modelButton.title = `Provider ${state.provider}, model ${state.model}: click to select another model`;
    const badges: HTMLElement[] = [];
    if (state.planMode) badges.push(h('span', { class: 'badge', testid: 'badge-plan', text: 'plan', title: 'Plan mode: the agent proposes, it does not change files' }));
    if (state.yolo.active) {
      const until = state.yolo.expiresAt !== undefined ? ` until ${new Date(state.yolo.expiresAt).toLocaleTimeString()}` : '';
      badges.push(h('span', { class: 'badge warn', testid: 'badge-yolo', text: 'yolo', title: `Every tool call is allowed without asking${until}` }));
    }
    if (state.permissionMode !== 'interactive') badges.push(h('span', { class: 'badge', testid: 'badge-permission-mode', text: state.permissionMode, title: `Permission mode: ${state.permissionMode}` }));
    this.badges.replaceChildren(...badges);
    this.sandbox.set(state.sandbox);
    this.fit();
  }
}

export class RuntimeBanner {
  readonly root = h('div', { class: 'runtime-banner', testid: 'runtime-banner', attrs: { role: 'status' } });

  constructor(private readonly post: (m: FromWebviewInput) => void) {
    this.root.hidden = true;
  }

  set(status: RuntimeStatus): void {
    this.root.dataset.status = status.status;
    if (status.status === 'ready') {
      this.root.hidden = true;
      this.root.replaceChildren();
      return;
    }
    this.root.hidden = false;
    if (status.status === 'crashed') {
      this.root.setAttribute('role', 'alert');
      const tail = status.stderrTail ?? [];
      this.root.replaceChildren();
      append(this.root,
        h('div', { class: 'banner-title', text: 'The agent runtime stopped unexpectedly.' }),
        h('div', { class: 'banner-reason', testid: 'runtime-crash-reason', text: capitalize(status.reason ?? '') }),
        tail.length > 0 ? h('details', { class: 'banner-stderr' }, h('summary', { text: 'Last output' }), h('pre', { text: tail.join('\n') })) : null,
        h('div', { class: 'banner-note', testid: 'runtime-crash-note', text: 'The transcript stays here; the restarted agent starts a fresh conversation (repeat any context it needs).' }),
        h('div', { class: 'button-row' }, button('Restart', 'restart-runtime', () => this.post({ type: 'restartRuntime' }), { class: 'btn primary' })),
      );
      return;
    }
    this.root.setAttribute('role', 'status');
    const text =
      status.status === 'starting' ? 'Starting the agent runtime…'
      : `Restarting the agent runtime${status.attempt !== undefined ? ` (attempt ${status.attempt})` : ''}${status.retryInMs !== undefined && status.retryInMs > 0 ? ` in ${Math.ceil(status.retryInMs / 1000)} s` : ''}…`;
    this.root.replaceChildren();
    append(this.root,
      h('div', { class: 'banner-title', text }),
      status.reason !== undefined ? h('div', { class: 'banner-reason', testid: 'runtime-crash-reason', text: capitalize(status.reason) }) : null,
    );
  }
}
