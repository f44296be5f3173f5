/** The top bar (model, modes, New chat) and the runtime status banner. */
import type { FromWebviewInput, PanelState, RuntimeStatus } from '../../../src/shared/chat/messages';
import { append, button, h } from './dom';

/** "New chat" on one line; when the model name would be cut short only its icon shows (the title still names it). */
function newChatButton(post: (m: FromWebviewInput) => void): HTMLButtonElement {
  const b = button('', 'new-chat', () => post({ type: 'newChat' }), { class: 'btn secondary small new-chat', title: 'New chat: start a new conversation' });
  b.setAttribute('aria-label', 'New chat');
  append(b, h('span', { class: 'new-chat-icon', text: '+', attrs: { 'aria-hidden': 'true' } }), h('span', { class: 'new-chat-label', text: 'New chat' }));
  return b;
}

/** "exited with code 1" → "Exited with code 1". */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Header {
  readonly root: HTMLElement;
  private readonly modelButton: HTMLButtonElement;
  private readonly badges = h('span', { class: 'mode-badges', testid: 'mode-badges' });

  constructor(post: (m: FromWebviewInput) => void) {
    this.modelButton = button('…', 'model-button', () => post({ type: 'selectModel' }), { class: 'link-button', title: 'Select model' });
    this.root = h('div', { class: 'header' },
      this.modelButton,
      this.badges,
      h('span', { class: 'header-spacer' }),
      newChatButton(post),
    );
    new ResizeObserver(() => this.fit()).observe(this.root);
  }

  /** Compact (icon-only New chat) only when the model link would otherwise be cut short. */
  private fit(): void {
    this.root.classList.remove('compact');
    const link = this.modelButton;
    if (link.scrollWidth > link.clientWidth) this.root.classList.add('compact');
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
