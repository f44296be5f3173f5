/**
 * Undoing applied changes in the editor: "agentcli: Undo Last Applied Changes" (listed while the context key
 * `agentcli.undoAvailable` is set) and the Undo button of an applied batch's card. Asks which files when the batch has
 * several (all ticked), reverts them with `undoChanges`, and says how it went; the card shows the per-file results
 * (`changes_reverted`). The undoable batches come from `listAppliedChanges`, refreshed when a batch is applied or
 * undone and when the runtime (re)starts.
 */
import * as vscode from 'vscode';
import { RpcErrorCode } from '../../protocol/constants';
import type { AppliedBatch } from '../../protocol/undo';
import type { RuntimeClient } from '../../sdk/client';
import { ProtocolError } from '../../sdk/errors';
import type { ToWebviewInput } from '../../shared/chat/messages';
import type { RuntimeHost } from '../host/runtime-host';
import { undoPick, undoSummary, whyNotUndoable } from './undo-items';

export const UNDO_CONTEXT_KEY = 'agentcli.undoAvailable';

export interface UndoChangesDeps {
  host: Pick<RuntimeHost, 'running' | 'ensureStarted' | 'onEvent' | 'onReady'>;
  post: (message: ToWebviewInput) => void;
  log: (line: string) => void;
}

/** A refused undo in the editor's words (the runtime's message names internal ids). */
function refusal(e: unknown): { text: string; action?: 'Stop' | 'Review Changes' } {
  if (e instanceof ProtocolError && e.code === RpcErrorCode.RunInProgress) return { text: 'The agent is still working. Undo when it has finished.', action: 'Stop' };
  if (e instanceof ProtocolError && e.code === RpcErrorCode.BatchPending) {
    return { text: 'Proposed changes are waiting for your decision. Accept or reject them first, then undo.', action: 'Review Changes' };
  }
  if (e instanceof ProtocolError && e.code === RpcErrorCode.UnknownId) return { text: 'These changes were already undone, or are no longer kept for undo.' };
  return { text: `The changes could not be undone: ${e instanceof Error ? e.message : String(e)}` };
}

export class UndoChanges implements vscode.Disposable {
  private batches: AppliedBatch[] = [];
  /** The runtime answered the last `listAppliedChanges`. */
  private listed = false;
  private busy = false;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: UndoChangesDeps) {
    this.subscriptions = [
      deps.host.onEvent((e) => {
        if (e.type === 'change_batch_decided' || e.type === 'changes_reverted') void this.refresh();
      }),
      deps.host.onReady(() => void this.refresh()),
    ];
  }

  /** Asks the running runtime what can be undone (never starts one: without a runtime nothing is undoable here). */
  async refresh(): Promise<void> {
    const client = this.deps.host.running;
    let batches: AppliedBatch[] = [];
    let listed = false;
    if (client) {
      try {
        batches = (await client.listAppliedChanges()).batches;
        listed = true;
      } catch (e) {
        this.deps.log(`could not list the undoable changes: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.batches = batches;
    this.listed = listed;
    void vscode.commands.executeCommand('setContext', UNDO_CONTEXT_KEY, batches.some((b) => b.undoable));
    this.postState();
  }

  /** Tells the panel which cards offer Undo (also after the panel was (re)loaded). */
  postState(): void {
    const unavailable = Object.fromEntries(this.batches.filter((b) => !b.undoable).map((b) => [b.batchId, whyNotUndoable(b)]));
    this.deps.post({ type: 'undoable', batchIds: this.batches.filter((b) => b.undoable).map((b) => b.batchId), unavailable, listed: this.listed });
  }

  /** The palette command: the newest applied batch with a file left to undo. */
  async undoLast(): Promise<void> {
    await this.refresh();
    const batch = this.batches.find((b) => b.undoable);
    if (!batch) {
      void vscode.window.showInformationMessage('Nothing to undo: no applied changes of this chat can still be undone.');
      return;
    }
    await this.undo(batch);
  }

  /** The Undo button of a card. */
  async undoBatch(batchId: string): Promise<void> {
    await this.refresh();
    const batch = this.batches.find((b) => b.batchId === batchId);
    if (!batch?.undoable) {
      void vscode.window.showInformationMessage('These changes were already undone, or are no longer kept for undo.');
      return;
    }
    await this.undo(batch);
  }

  private async undo(batch: AppliedBatch): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const paths = await this.choosePaths(batch);
      if (!paths) return;
      const client: RuntimeClient = await this.deps.host.ensureStarted();
      const { results } = await client.undoChanges({ batchId: batch.batchId, paths });
      for (const r of results) this.deps.log(`undo ${r.status} ${r.path}${r.reason ? `: ${r.reason}` : ''}`);
      const summary = undoSummary(results);
      if (summary.problems) void vscode.window.showWarningMessage(summary.text);
      else void vscode.window.showInformationMessage(summary.text);
    } catch (e) {
      const { text, action } = refusal(e);
      const pick = await (action ? vscode.window.showWarningMessage(text, action) : vscode.window.showWarningMessage(text));
      if (pick === 'Stop') await vscode.commands.executeCommand('agentcli.stop');
      else if (pick === 'Review Changes') await vscode.commands.executeCommand('agentcli.reviewChanges');
    } finally {
      this.busy = false;
      await this.refresh(); // the card shows Undo again (cancelled, refused) or its results
    }
  }

  /** Every undoable file when there is one; else a multi-pick with all of them ticked (undefined: cancelled). */
  private async choosePaths(batch: AppliedBatch): Promise<string[] | undefined> {
    const pick = undoPick(batch);
    if (pick.items.length <= 1) return pick.items.map((i) => i.path);
    const chosen = await vscode.window.showQuickPick(pick.items, { canPickMany: true, title: pick.title, placeHolder: pick.placeHolder, ignoreFocusOut: true });
    if (!chosen || chosen.length === 0) return undefined;
    return chosen.map((c) => c.path);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
