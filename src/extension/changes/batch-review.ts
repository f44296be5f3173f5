/**
 * The pending change batch in the editor: multi-file and single-file diffs over virtual documents, accept-selected
 * quick pick, per-file Accept/Reject marks from the diff editor title, the `agentcli.batchUnderReview` context key,
 * and the decision sent with `decideChanges` with its per-file results shown.
 */
import * as vscode from 'vscode';
import type { ChangeBatch, ChangeDecision, ChangeResult, HunkSelection } from '../../protocol/records';
import { batchSummary, changePickItems, hasProblems, rejectAllQuestion, resultLines, resultSummary } from './batch-items';
import { CONTEXT_KEYS } from '../chat/context-keys';
import { CHANGE_SCHEME, DiffContentProvider } from './diff-content-provider';
import type { HunkTally } from './hunk-marks';
import { HunkReview } from './hunk-review';

export const BATCH_CONTEXT_KEY = 'agentcli.batchUnderReview';
const MULTI_DIFF_TITLE = 'Proposed changes';

/** `Proposed changes (+2 −0)`: VS Code adds the file count itself. */
function multiDiffTitle(b: ChangeBatch): string {
  const { additions, deletions } = batchSummary(b);
  return `${MULTI_DIFF_TITLE} (+${additions} −${deletions})`;
}

export interface BatchDecider {
  decide(batchId: string, decision: ChangeDecision, changeIds?: string[], hunks?: HunkSelection): Promise<ChangeResult[]>;
}

export interface BatchReviewEvents {
  /** Results of a decision, for the panel. */
  onResults(batchId: string, results: ChangeResult[]): void;
  /** Files with rejected hunks changed (the panel shows "2 of 3 hunks"). */
  onHunkTallies?(batchId: string, tallies: HunkTally[]): void;
  log(line: string): void;
}

export class BatchReview implements vscode.Disposable {
  private batch: ChangeBatch | undefined;
  /** Per-file marks from the diff editor title: true = accept, false = reject. */
  private readonly marks = new Map<string, boolean>();
  private deciding = false;
  /** "Accepted x.txt. 1 file left.": taken down once the batch is decided. */
  private markMessage: vscode.Disposable | undefined;
  /** Per-hunk marks in the diffs (hunk-review.ts). */
  readonly hunks: HunkReview;

  constructor(
    private readonly content: DiffContentProvider,
    private readonly decider: BatchDecider,
    private readonly events: BatchReviewEvents,
  ) {
    this.hunks = new HunkReview(content, () => this.batch, (batchId, tallies) => events.onHunkTallies?.(batchId, tallies));
  }

  get current(): ChangeBatch | undefined {
    return this.batch;
  }

  /** A batch arrived or changed (`open` while the run works, `pending` when it waits for a decision). */
  setBatch(batch: ChangeBatch | null): void {
    if (!batch || batch.status === 'decided' || batch.changes.length === 0) {
      this.clear();
      return;
    }
    if (this.batch?.id !== batch.id) this.marks.clear();
    this.batch = batch;
    this.content.setBatch(batch);
    this.hunks.follow(batch);
    void vscode.commands.executeCommand('setContext', BATCH_CONTEXT_KEY, batch.status === 'pending');
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.batchProposed, true);
  }

  clear(): void {
    this.batch = undefined;
    this.marks.clear();
    this.markMessage?.dispose();
    this.markMessage = undefined;
    this.content.clear();
    this.hunks.follow(undefined);
    void vscode.commands.executeCommand('setContext', BATCH_CONTEXT_KEY, false);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.batchProposed, false);
  }

  private require(batchId?: string): ChangeBatch | undefined {
    const b = this.batch;
    if (!b) {
      void vscode.window.showInformationMessage('No proposed changes are waiting for review.');
      return undefined;
    }
    if (batchId && b.id !== batchId) {
      void vscode.window.showWarningMessage('These proposed changes are no longer pending. The chat panel shows the current ones.');
      return undefined;
    }
    return b;
  }

  /** Opens the whole batch in the multi-file diff editor, or one change in a diff editor. Never takes focus from typing. */
  async review(batchId?: string, changeId?: string): Promise<void> {
    const b = this.require(batchId);
    if (!b) return;
    const root = vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileUri = (p: string, abs: string) => (abs ? vscode.Uri.file(abs) : root ? vscode.Uri.joinPath(root, p) : vscode.Uri.file(p));
    if (changeId) {
      const c = b.changes.find((x) => x.id === changeId);
      if (!c) {
        void vscode.window.showWarningMessage('That file is not part of the pending changes any more.');
        return;
      }
      await vscode.commands.executeCommand(
        'vscode.diff',
        DiffContentProvider.uri(b.id, c.id, 'original', c.path),
        DiffContentProvider.uri(b.id, c.id, 'proposed', c.path),
        `${c.path} (${c.kind}, proposed)`,
        { preserveFocus: true, preview: true },
      );
      return;
    }
    // A created file has no original side and a deleted one no proposed side: the editor then shows them as added/removed.
    // (VS Code still draws an empty document as one empty line, so a created file's diff starts with an empty red line.)
    const resources = b.changes.map((c) => [
      fileUri(c.path, c.absolutePath),
      c.kind === 'create' ? undefined : DiffContentProvider.uri(b.id, c.id, 'original', c.path),
      c.kind === 'delete' ? undefined : DiffContentProvider.uri(b.id, c.id, 'proposed', c.path),
    ]);
    await vscode.commands.executeCommand('vscode.changes', multiDiffTitle(b), resources);
  }

  /**
   * Multi-select quick pick over the batch's files, all ticked (files rejected from the diff editor title start
   * unticked): Enter applies the ticked ones and rejects the rest. Nothing ticked asks before rejecting everything.
   */
  async acceptSelected(batchId?: string): Promise<void> {
    const b = this.require(batchId);
    if (!b) return;
    const items = changePickItems(b, [...this.marks].filter(([, accept]) => !accept).map(([id]) => id));
    const chosen = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: `Accept selected changes (${batchSummary(b).text})`,
      placeHolder: 'Untick the files to reject; Enter applies the ticked ones. Esc cancels.',
      ignoreFocusOut: true,
    });
    if (!chosen) return;
    if (chosen.length === 0) {
      const reject = await vscode.window.showWarningMessage(rejectAllQuestion(b), { modal: true }, 'Reject All');
      if (reject === 'Reject All') await this.decide('reject_all', undefined, b.id);
      return;
    }
    if (chosen.length === b.changes.length) await this.decide('accept_all', undefined, b.id);
    else await this.decide('accept_selected', chosen.map((c) => c.changeId), b.id);
  }

  /** Accept or reject the file of the diff editor the button sits on; decides once every file is marked. */
  async markFile(accept: boolean, uri?: vscode.Uri): Promise<void> {
    const b = this.require();
    if (!b) return;
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    const parsed = target ? DiffContentProvider.parse(target) : undefined;
    const change = parsed && parsed.batchId === b.id ? b.changes.find((c) => c.id === parsed.changeId) : undefined;
    if (!change) {
      void vscode.window.showInformationMessage('Open one file of the proposed changes (Review) to accept or reject it, or use Accept All / Reject All.');
      return;
    }
    this.marks.set(change.id, accept);
    const left = b.changes.filter((c) => !this.marks.has(c.id));
    if (left.length > 0) {
      this.markMessage?.dispose();
      this.markMessage = vscode.window.setStatusBarMessage(
        `${accept ? 'Accepted' : 'Rejected'} ${change.path}. ${left.length} file${left.length === 1 ? '' : 's'} left.`,
        4000,
      );
      const next = left[0]!;
      await this.review(b.id, next.id);
      return;
    }
    const accepted = b.changes.filter((c) => this.marks.get(c.id)).map((c) => c.id);
    if (accepted.length === 0) await this.decide('reject_all', undefined, b.id);
    else if (accepted.length === b.changes.length) await this.decide('accept_all', undefined, b.id);
    else await this.decide('accept_selected', accepted, b.id);
  }

  /** Applies the batch as reviewed: the files not rejected from the diff title, each with only its kept hunks. */
  async applyReviewed(): Promise<void> {
    const b = this.require();
    if (!b) return;
    const accepted = b.changes.filter((c) => this.marks.get(c.id) !== false).map((c) => c.id);
    if (accepted.length === 0) await this.decide('reject_all', undefined, b.id);
    else if (accepted.length === b.changes.length) await this.decide('accept_all', undefined, b.id);
    else await this.decide('accept_selected', accepted, b.id);
  }

  async decide(decision: ChangeDecision, changeIds?: string[], batchId?: string): Promise<void> {
    const b = this.require(batchId);
    if (!b || this.deciding) return;
    if (b.status !== 'pending') {
      void vscode.window.showInformationMessage('The agent is still working on these changes. Decide when the run has ended.');
      return;
    }
    this.deciding = true;
    try {
      // Accepted files are applied with only the hunks kept in the diffs.
      const accepted = new Set(decision === 'accept_all' ? b.changes.map((c) => c.id) : decision === 'reject_all' ? [] : (changeIds ?? []));
      const hunks = this.hunks.marks.selection(accepted, this.content.heldContents(b.id));
      const results = await this.decider.decide(b.id, decision, changeIds, hunks);
      this.finish(b, results);
    } catch (e) {
      void vscode.window.showErrorMessage(`The decision could not be applied: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.deciding = false;
    }
  }

  /** Results arrived (from our call or a `change_batch_decided` event): show them, open applied files, close diffs. */
  finish(batch: ChangeBatch, results: ChangeResult[]): void {
    if (this.batch?.id !== batch.id) return;
    this.events.onResults(batch.id, results);
    for (const line of resultLines(results)) this.events.log(`change ${line}`);
    this.clear();
    void this.closeDiffTabs();
    void this.openApplied(batch, results);
    const summary = resultSummary(results);
    if (hasProblems(results)) {
      const details = resultLines(results.filter((r) => r.status === 'stale' || r.status === 'failed')).join('; ');
      void vscode.window.showWarningMessage(`${summary} ${details}.`);
    } else {
      void vscode.window.showInformationMessage(summary);
    }
  }

  private async openApplied(batch: ChangeBatch, results: ChangeResult[]): Promise<void> {
    const applied = new Set(results.filter((r) => r.status === 'applied').map((r) => r.changeId));
    for (const c of batch.changes) {
      if (!applied.has(c.id) || c.kind === 'delete') continue;
      try {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(c.absolutePath));
        await vscode.window.showTextDocument(doc, { preserveFocus: true, preview: true });
      } catch (e) {
        this.events.log(`could not open ${c.path}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  private async closeDiffTabs(): Promise<void> {
    const ours: vscode.Tab[] = [];
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input as { original?: vscode.Uri; modified?: vscode.Uri; textDiffs?: { original?: vscode.Uri }[] } | undefined;
        if (input instanceof vscode.TabInputTextDiff && input.modified.scheme === CHANGE_SCHEME) ours.push(tab);
        else if (Array.isArray(input?.textDiffs) && input.textDiffs.some((d) => d.original?.scheme === CHANGE_SCHEME)) ours.push(tab);
        else if (tab.label.startsWith(MULTI_DIFF_TITLE)) ours.push(tab);
      }
    }
    if (ours.length) await vscode.window.tabGroups.close(ours, true);
  }

  dispose(): void {
    this.marks.clear();
    this.hunks.dispose();
  }
}
