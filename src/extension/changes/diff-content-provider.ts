/**
 * Serves both sides of a change batch's diffs from memory under our own URI scheme, so nothing is written to disk
 * before the user decides and no file content travels inside URIs.
 * URI form: `agentcli-change:/<workspace-relative path>?batch=<id>&change=<id>&side=original|proposed`: the path is the
 * file's own (the editor picks the language from it, and both sides of a diff show the same name), the query says
 * which batch, change and side.
 */
import * as vscode from 'vscode';
import type { ChangeBatch } from '../../protocol/records';

export const CHANGE_SCHEME = 'agentcli-change';
export type DiffSide = 'original' | 'proposed';

export class DiffContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static uri(batchId: string, changeId: string, side: DiffSide, relativePath: string): vscode.Uri {
    const query = new URLSearchParams({ batch: batchId, change: changeId, side }).toString();
    return vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${relativePath.replace(/^\/+/, '')}`, query });
  }

  /** Parses one of our URIs; undefined for anything else. */
  static parse(uri: vscode.Uri): { batchId: string; changeId: string; side: DiffSide; path: string } | undefined {
    if (uri.scheme !== CHANGE_SCHEME) return undefined;
    const q = new URLSearchParams(uri.query);
    const batchId = q.get('batch');
    const changeId = q.get('change');
    const side = q.get('side');
    if (!batchId || !changeId || (side !== 'original' && side !== 'proposed')) return undefined;
    return { batchId, changeId, side, path: uri.path.replace(/^\//, '') };
  }

  /** Replaces the served contents with this batch's (a batch update may change proposed contents). */
  setBatch(batch: ChangeBatch): void {
    const stale = new Set(this.contents.keys());
    for (const c of batch.changes) {
      for (const side of ['original', 'proposed'] as const) {
        const uri = DiffContentProvider.uri(batch.id, c.id, side, c.path);
        const key = uri.toString();
        const text = (side === 'original' ? c.originalContent : c.proposedContent) ?? '';
        stale.delete(key);
        if (this.contents.get(key) !== text) {
          const existed = this.contents.has(key);
          this.contents.set(key, text);
          if (existed) this.changed.fire(uri);
        }
      }
    }
    for (const key of stale) this.contents.delete(key);
  }

  clear(): void {
    this.contents.clear();
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const text = this.contents.get(uri.toString());
    if (text === undefined) return '(this proposed change is no longer pending: it was decided or replaced)';
    return text;
  }

  dispose(): void {
    this.changed.dispose();
    this.contents.clear();
  }
}
