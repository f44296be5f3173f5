/** The chat panel: receives validated messages, feeds the reducer, and keeps the views and the saved state in step. */
import type { ContextChip, FromWebviewInput, ToWebview } from '../../../src/shared/chat/messages';
import { loadContract, type PanelContract } from '../model/loadContract';
import { OlderPages } from '../model/olderPages';
import { buildSnapshot, type PersistedPanel } from '../model/persist';
import {
  addError,
  addUserPrompt,
  answerPlanItem,
  markMentionsRefused,
  applyBatchResult,
  applyEvent,
  clearConversation,
  createTranscript,
  itemIds,
  markPromptFailed,
  mergePending,
  prependItems,
  recordPermissionAlternative,
  replaceTranscript,
  type Changes,
} from '../../../src/shared/chat/model/transcriptReducer';
import { planItemId } from '../../../src/shared/chat/model/planItems';
import { Composer } from './composer';
import { h } from './dom';
import { Header, RuntimeBanner } from './header';
import { takeFocus } from './items/cardKeys';
import type { ItemContext } from './items/context';
import { renderItem } from './items/renderItem';
import type { HostChannel } from './vscodeApi';
import { TranscriptView } from './transcriptView';
import { Welcome } from './welcome';

const SAVE_DELAY_MS = 1000;

/**
 * In a task of its own, after the one that builds the panel: the page can take input (and draw) in between. A message
 * to itself, not a timer: the editor's webview frame may not be visible yet, and Chromium delays a hidden frame's
 * timers (up to a second); nor after the next frame, which a restored transcript would then wait for.
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

export class ChatApp {
  private readonly model;
  private readonly header: Header;
  private readonly banner: RuntimeBanner;
  private readonly transcript: TranscriptView;
  private readonly composer: Composer;
  private readonly welcome: Welcome;
  private readonly acknowledged = new Set<string>();
  /** Cards that already took the focus once (a re-render must not take it again). */
  private readonly focusClaimed = new Set<string>();
  private readonly itemContext: ItemContext;
  private readonly older = new OlderPages((beforeId) => this.host.post({ type: 'loadOlder', beforeId }));
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The validation code, loaded once the prompt box is built; every message waits for it, in order. */
  private readonly contract: Promise<PanelContract>;
  /** A saved snapshot waits for its checks: no welcome meanwhile (it would flash before the restored transcript). */
  private restoring: boolean;

  constructor(private readonly host: HostChannel, mount: HTMLElement) {
    const savedState = host.getState();
    this.restoring = savedState !== undefined && savedState !== null;
    this.model = createTranscript([]);
    const post = (m: FromWebviewInput) => this.host.post(m);
    this.itemContext = {
      post,
      copy: (text) => this.copy(text),
      openFile: (path, line) => post({ type: 'openFile', path, ...(line !== undefined ? { line } : {}) }),
      expandedTools: new Set(),
      batchHunks: new Map(),
      answered: new Map(),
      undoable: new Set(),
      markAnswered: (id, label) => {
        // Answered from the keyboard: the buttons go away, so the focus goes back to the prompt box, not to nowhere.
        const fromCard = document.activeElement instanceof HTMLElement && document.activeElement.closest('.card') !== null;
        this.itemContext.answered.set(id, label);
        this.transcript.refresh(id);
        if (fromCard) requestAnimationFrame(() => (document.activeElement === document.body || document.activeElement === null) && this.composer.focus());
      },
      claimFocus: (id, card, target) => {
        if (this.focusClaimed.has(id)) return;
        this.focusClaimed.add(id);
        takeFocus(card, target);
      },
      noteAlternative: (requestId, text) => this.apply(recordPermissionAlternative(this.model, requestId, text)),
      acknowledge: (kind, requestId) => {
        const key = `${kind}:${requestId}`;
        if (this.acknowledged.has(key)) return;
        this.acknowledged.add(key);
        post(kind === 'permission' ? { type: 'permissionShown', requestId } : { type: 'directoryShown', requestId });
      },
    };
    this.header = new Header(post);
    this.header.root.querySelector('[data-testid="new-chat"]')?.addEventListener('click', () => this.apply(clearConversation(this.model)));
    this.banner = new RuntimeBanner(post);
    this.transcript = new TranscriptView(() => this.model.items, (id) => this.model.index.get(id), (item, previous) => renderItem(item, this.itemContext, previous), () => this.older.request(this.model.items[0]?.id));
    this.composer = new Composer({
      post,
      onSend: (prompt) => {
        this.apply(addUserPrompt(this.model, prompt));
        this.transcript.scrollToBottom();
      },
      onDraftChange: (urgent) => (urgent === true ? this.saveNow() : this.scheduleSave()),
    });
    this.welcome = new Welcome((text) => this.composer.fill(text));
    mount.replaceChildren(h('div', { class: 'app' }, this.header.root, this.banner.root, this.welcome.root, this.transcript.root, this.composer.root));
    this.composer.autosize();
    this.showWelcomeIfEmpty();
    this.transcript.update({ reset: false, ids: [] });
    window.addEventListener('message', (ev: MessageEvent) => this.receive(ev.data));
    post({ type: 'ready' });
    this.composer.adoptCarriedBox(); // after `ready`: an Enter pressed while the page loaded sends its prompt now
    this.contract = nextTask()
      .then(loadContract)
      .then((contract) => {
        this.restore(contract.readSnapshot(savedState));
        return contract;
      });
  }

  /** The saved snapshot, checked: its transcript, and its draft and chips unless the user has begun a prompt. */
  private restore(saved: PersistedPanel | undefined): void {
    this.restoring = false;
    if (saved !== undefined) {
      replaceTranscript(this.model, [...saved.items, ...this.model.items]); // a prompt sent meanwhile stays last
      if (this.composer.draft === '') this.composer.setDraft(saved.draft);
      if (this.composer.context.length === 0) this.composer.setChips(saved.context);
    }
    this.showWelcomeIfEmpty();
    this.transcript.update({ reset: true, ids: [] });
  }

  /** Validate and handle one message from the extension (once the checks are loaded); a bad message is reported, never thrown. */
  receive(raw: unknown): void {
    this.contract.then(
      (contract) => this.handleChecked(contract, raw),
      (err: unknown) => this.host.post({ type: 'webviewError', message: `the panel could not load its message checks: ${err instanceof Error ? err.message : String(err)}` }),
    );
  }

  private handleChecked(contract: PanelContract, raw: unknown): void {
    const parsed = contract.safeParseToWebview(raw);
    if (!parsed.ok) {
      this.host.post({ type: 'webviewError', message: parsed.error.message });
      return;
    }
    try {
      this.handle(parsed.message);
    } catch (err) {
      this.host.post({ type: 'webviewError', message: `the panel failed to handle "${parsed.message.type}": ${err instanceof Error ? err.message : String(err)}` });
    }
  }

  private handle(msg: ToWebview): void {
    switch (msg.type) {
      case 'init': {
        this.itemContext.answered.clear();
        replaceTranscript(this.model, msg.items);
        this.older.reset(msg.olderCount);
        mergePending(this.model, { permissions: msg.pendingPermissions, directories: msg.pendingDirectoryAccess, batch: msg.pendingBatch, plan: msg.proposedPlan });
        this.apply({ reset: true, ids: [] });
        this.header.setState(msg.state);
        this.header.setUsage(msg.contextUsage);
        this.welcome.setState(msg.state);
        this.banner.set(msg.runtime);
        this.composer.setRunning(msg.state.running);
        this.composer.setChips(msg.context);
        return;
      }
      case 'olderItems':
        if (this.older.accept(msg.beforeId, msg.olderCount, this.model.items[0]?.id)) this.apply(prependItems(this.model, msg.items));
        return;
      case 'event': {
        const e = msg.event;
        this.apply(applyEvent(this.model, e));
        if (e.type === 'agent_start') this.composer.setRunning(true);
        else if (e.type === 'agent_end') this.composer.setRunning(false);
        else if (e.type === 'permission_request' || e.type === 'directory_access_request') this.transcript.scrollToBottom();
        else if (e.type === 'permission_resolved') this.itemContext.answered.delete(itemIds.permission(e.requestId));
        else if (e.type === 'directory_access_resolved') this.itemContext.answered.delete(itemIds.directory(e.requestId));
        else if (e.type === 'change_batch_decided') this.itemContext.answered.delete(itemIds.batch(e.batchId));
        else if (e.type === 'change_batch_ready') this.transcript.scrollToBottom();
        else if (e.type === 'plan_proposed' || e.type === 'plan_update') {
          this.itemContext.answered.delete(planItemId(e.planId));
          if (e.type === 'plan_proposed') this.transcript.scrollToBottom();
        }
        return;
      }
      case 'runtimeStatus':
        this.banner.set(msg.runtime);
        if (msg.runtime.status === 'crashed') this.composer.setRunning(false);
        return;
      case 'state':
        this.header.setState(msg.state);
        this.welcome.setState(msg.state);
        this.composer.setRunning(msg.state.running);
        return;
      case 'contextAdded':
        this.composer.addChip(msg.chip);
        this.composer.focus();
        return;
      case 'undoable': {
        // An undo that was asked for is over (done, cancelled or refused): its card shows Undo again or its results.
        // Any batch card's Undo or note may change (sent rarely: a batch decided or undone, the runtime started).
        const batches = this.model.items.flatMap((i) => (i.kind === 'batch' ? [i] : []));
        this.itemContext.undoable = new Set(msg.batchIds);
        this.itemContext.undoUnavailable = { reasons: new Map(Object.entries(msg.unavailable)), listed: msg.listed };
        // only a decided card's label is an undo's ("Undoing…"); a pending card's keeps waiting for its decision
        for (const b of batches) if (b.status === 'decided') this.itemContext.answered.delete(b.id);
        this.apply({ reset: false, ids: batches.map((b) => b.id) });
        return;
      }
      case 'batchHunks':
        this.itemContext.batchHunks.set(msg.batchId, new Map(msg.files.map((f) => [f.changeId, f])));
        this.apply({ reset: false, ids: [itemIds.batch(msg.batchId)] });
        return;
      case 'batchResult':
        this.itemContext.answered.delete(itemIds.batch(msg.batchId));
        this.apply(applyBatchResult(this.model, msg.batchId, msg.results));
        return;
      case 'error':
        this.onError(msg);
        return;
      case 'focusInput':
        this.composer.focus();
        return;
      case 'contextUsage':
        this.header.setUsage(msg.usage);
        return;
      case 'fileMatches':
        this.composer.fileMatches(msg);
        return;
      case 'mentionsRefused':
        this.apply(markMentionsRefused(this.model, msg.promptId, msg.paths));
        return;
      case 'planAnswered':
        this.itemContext.answered.delete(planItemId(msg.planId));
        this.apply(answerPlanItem(this.model, msg.planId, msg.decision));
        return;
    }
  }

  private onError(msg: Extract<ToWebview, { type: 'error' }>): void {
    // Whatever was being answered may have failed: bring the buttons back so the user can try again.
    const waiting = [...this.itemContext.answered.keys()];
    this.itemContext.answered.clear();
    const changes: Changes = { reset: false, ids: waiting };
    if (msg.promptId !== undefined) {
      // The prompt was refused before its run: no run started, so Send comes back (Enter showed Stop at once).
      if (this.model.activeRunId === undefined) this.composer.setRunning(false);
      const failed = markPromptFailed(this.model, msg.promptId);
      changes.ids.push(...failed.changes.ids);
      if (failed.text !== undefined && this.composer.draft.trim() === '') this.composer.setDraft(failed.text);
    }
    changes.ids.push(...addError(this.model, { message: msg.message, remedy: msg.remedy, fix: msg.fix }).ids);
    this.apply(changes);
    this.transcript.scrollToBottom();
  }

  private apply(changes: Changes): void {
    if (!changes.reset && changes.ids.length === 0) return;
    this.showWelcomeIfEmpty();
    this.transcript.update(changes);
    this.scheduleSave();
  }

  /** The welcome replaces the transcript while it has no items. */
  private showWelcomeIfEmpty(): void {
    const empty = this.model.items.length === 0;
    this.welcome.setVisible(empty && !this.restoring);
    this.transcript.root.hidden = empty;
  }

  private copy(text: string): void {
    const fallback = () => this.host.post({ type: 'copyText', text });
    try {
      navigator.clipboard.writeText(text).catch(fallback);
    } catch {
      fallback();
    }
  }

  private scheduleSave(): void {
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  private saveNow(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const chips: readonly ContextChip[] = this.composer.context;
    this.host.setState(buildSnapshot(this.model.items, this.composer.draft, chips));
  }
}
