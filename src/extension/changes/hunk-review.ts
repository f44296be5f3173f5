/**
 * Accepting or rejecting single hunks in the diff review. "Accept Hunk" / "Reject Hunk" (editor context menu, command
 * palette) act on the hunk at the cursor of a proposed change's diff, on either side; a rejected hunk disappears from
 * the proposed side (it shows the original lines there), and a note at the end of each hunk's first changed line says
 * `hunk 2/3 kept` or `hunk 2/3 rejected`. The `agentcli.hunksRejected` context key shows "Apply Reviewed Hunks"; the
 * decision then sends the kept hunks (hunk-marks.ts).
 */
import * as vscode from 'vscode';
import type { ChangeBatch, ChangeContents } from '../../protocol/records';
import { DiffContentProvider } from './diff-content-provider';
import { HunkMarks, type HunkTally } from './hunk-marks';

const HUNKS_REJECTED_CONTEXT_KEY = 'agentcli.hunksRejected';

/** Per hunk, how many context lines its region starts with (before its first changed line); the texts split once. */
function leadingContexts(c: ChangeContents): number[] {
  const from = (c.originalContent ?? '').split('\n');
  const to = (c.proposedContent ?? '').split('\n');
  return c.hunks.map((h) => {
    let n = 0;
    while (n < h.oldLines && n < h.newLines && from[h.oldStart - 1 + n] === to[h.newStart - 1 + n]) n++;
    return n;
  });
}

export class HunkReview implements vscode.Disposable {
  readonly marks = new HunkMarks();
  private readonly kept = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('descriptionForeground'), margin: '0 0 0 3em' },
  });
  private readonly rejected = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('errorForeground'), margin: '0 0 0 3em' },
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.unchangedRegionBackground'),
  });
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly content: DiffContentProvider,
    private readonly batch: () => ChangeBatch | undefined,
    private readonly onTallies: (batchId: string, tallies: HunkTally[]) => void,
  ) {
    content.proposedView = (c) => (this.marks.hasRejected(c.changeId) ? this.marks.shown(c)?.content : undefined);
    this.subscriptions = [
      vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (DiffContentProvider.parse(e.document.uri)) this.decorate();
      }),
    ];
  }

  /** The batch arrived or changed: marks of another batch or of a change whose proposal moved on are dropped. */
  follow(batch: ChangeBatch | undefined): void {
    this.marks.follow(batch);
    this.changed(batch);
  }

  /** Keeps (`keep`) or rejects the hunk at the cursor of the diff editor showing `uri` (else the active editor). */
  async mark(keep: boolean, uri?: vscode.Uri): Promise<void> {
    const b = this.batch();
    // From a context menu: the editor clicked in when that is one of ours (in the multi-file diff editor the menu may
    // pass another resource), else the editor with the cursor.
    const clicked = uri && DiffContentProvider.parse(uri) ? vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString()) : undefined;
    const editor = clicked ?? vscode.window.activeTextEditor;
    const parsed = editor ? DiffContentProvider.parse(editor.document.uri) : undefined;
    const change = b && parsed?.batchId === b.id ? b.changes.find((c) => c.id === parsed.changeId) : undefined;
    if (!b || !editor || !parsed || !change) {
      void vscode.window.showInformationMessage('Put the cursor in a diff of the proposed changes (Review) to accept or reject one hunk.');
      return;
    }
    if (change.kind !== 'modify') {
      const what = change.kind === 'create' ? 'a new file' : 'a deletion';
      void vscode.window.showInformationMessage(`${change.path} is ${what}: it is accepted or rejected as a whole (Accept This File / Reject This File).`);
      return;
    }
    const contents = await this.content.contentsOf(b.id, change.id);
    const index = contents ? this.marks.hunkAt(contents, parsed.side, editor.selection.active.line) : undefined;
    if (!contents || index === undefined) {
      void vscode.window.showWarningMessage(`The hunks of ${change.path} could not be loaded from the agentcli runtime; accept or reject the whole file.`);
      return;
    }
    this.marks.mark(change.id, change.revision, index, keep);
    this.content.refreshProposed(b.id, change.id, change.path);
    this.changed(b);
    const total = contents.hunks.length;
    vscode.window.setStatusBarMessage(`${keep ? 'Kept' : 'Rejected'} hunk ${index + 1} of ${total} in ${change.path}.`, 4000);
  }

  private changed(batch: ChangeBatch | undefined): void {
    void vscode.commands.executeCommand('setContext', HUNKS_REJECTED_CONTEXT_KEY, this.marks.any);
    if (batch) this.onTallies(batch.id, this.marks.tallies(this.content.heldContents(batch.id)));
    this.decorate();
  }

  /** A note on each hunk of every visible proposed side: its number, and whether it is kept or rejected. */
  private decorate(): void {
    const b = this.batch();
    const held = b ? this.content.heldContents(b.id) : new Map<string, ChangeContents>();
    for (const editor of vscode.window.visibleTextEditors) {
      const parsed = DiffContentProvider.parse(editor.document.uri);
      if (!parsed || parsed.side !== 'proposed') continue;
      const c = parsed.batchId === b?.id ? held.get(parsed.changeId) : undefined;
      const shown = c ? this.marks.shown(c) : undefined;
      const kept: vscode.DecorationOptions[] = [];
      const rejected: vscode.DecorationOptions[] = [];
      if (c && shown && shown.content === editor.document.getText()) {
        const context = leadingContexts(c);
        c.hunks.forEach((h, i) => {
          const isRejected = this.marks.isRejected(c.changeId, i);
          const size = isRejected ? h.oldLines : h.newLines;
          const line = Math.min(shown.starts[i]! + Math.min(context[i]!, Math.max(size - 1, 0)), editor.document.lineCount - 1);
          const end = editor.document.lineAt(line).range.end;
          const label = `hunk ${i + 1}/${c.hunks.length} ${isRejected ? 'rejected' : 'kept'}`;
          const hoverMessage = isRejected
            ? 'This hunk is left out: the original lines stay. Right-click › **Accept Hunk** to apply it again.'
            : 'This hunk is applied when you accept. Right-click › **Reject Hunk** to leave it out.';
          (isRejected ? rejected : kept).push({ range: new vscode.Range(end, end), hoverMessage, renderOptions: { after: { contentText: label } } });
        });
      }
      editor.setDecorations(this.kept, kept);
      editor.setDecorations(this.rejected, rejected);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.kept.dispose();
    this.rejected.dispose();
    this.content.proposedView = undefined;
  }
}
