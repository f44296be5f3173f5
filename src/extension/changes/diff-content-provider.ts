/**
 * Serves both sides of a change batch's diffs under our own URI scheme, so nothing is written to disk before the user
 * decides and no file content travels inside URIs. The contents come from the runtime when a diff is opened
 * (change-contents.ts caches them per change revision); batch events carry summaries only.
 * URI form: `agentcli-change:/<workspace-relative path>?batch=<id>&change=<id>&side=original|proposed`: the path is the
 * file's own (the editor picks the language from it, and both sides of a diff show the same name), the query says
 * which batch, change and side.
 */
import * as vscode from 'vscode';
import type { ChangeBatch, ChangeContents } from '../../protocol/records';
import { ChangeContentsCache, type FetchContents } from './change-contents';

export const CHANGE_SCHEME = 'agentcli-change';
export type DiffSide = 'original' | 'proposed';

const NOT_PENDING = '(this proposed change is no longer pending: it was decided or replaced)';

export class DiffContentProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly cache: ChangeContentsCache;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** What the proposed side shows instead of the proposal (per-hunk review: only the kept hunks); undefined: the proposal. */
  proposedView?: (contents: ChangeContents) => string | undefined;

  constructor(fetch: FetchContents) {
    this.cache = new ChangeContentsCache(fetch);
  }

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

  /** Follows the batch; open diffs of a change whose proposal moved on are refreshed (they fetch again). */
  setBatch(batch: ChangeBatch): void {
    for (const id of this.cache.setBatch(batch)) {
      const c = batch.changes.find((x) => x.id === id);
      if (!c) continue;
      this.changed.fire(DiffContentProvider.uri(batch.id, c.id, 'original', c.path));
      this.changed.fire(DiffContentProvider.uri(batch.id, c.id, 'proposed', c.path));
    }
  }

  /** The proposed side of a change shows something else now (hunks were kept or rejected): open diffs refresh. */
  refreshProposed(batchId: string, changeId: string, relativePath: string): void {
    this.changed.fire(DiffContentProvider.uri(batchId, changeId, 'proposed', relativePath));
  }

  /** Both sides of one change of the current batch (fetched if not held yet); undefined when it is not part of it. */
  contentsOf(batchId: string, changeId: string): Promise<ChangeContents | undefined> {
    return this.cache.get(batchId, changeId);
  }

  /** Fetches every change's contents now (the batch is pending): a crashed runtime's batch can still be applied. */
  prefetch(): Promise<void> {
    return this.cache.prefetch();
  }

  /** The contents held for batch `batchId`, per change id. */
  heldContents(batchId: string): ReadonlyMap<string, ChangeContents> {
    return this.cache.heldFor(batchId);
  }

  clear(): void {
    this.cache.clear();
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const parsed = DiffContentProvider.parse(uri);
    if (!parsed) return NOT_PENDING;
    try {
      const contents = await this.cache.get(parsed.batchId, parsed.changeId);
      if (!contents) return NOT_PENDING;
      if (parsed.side === 'original') return contents.originalContent ?? '';
      return this.proposedView?.(contents) ?? contents.proposedContent ?? '';
    } catch (e) {
      return `(the contents of this proposed change could not be loaded from the agentcli runtime: ${e instanceof Error ? e.message : String(e)})`;
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.cache.clear();
  }
}
