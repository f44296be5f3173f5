/**
 * The workspace files the prompt box's `@` suggestions come from: listed with `vscode.workspace.findFiles` in the
 * first workspace folder (the one `@path` mentions resolve against), without the user's `files.exclude` /
 * `search.exclude` folders, dependencies and build output, bounded in count and time, kept for a few seconds so
 * typing does not list the workspace once per key. The panel debounces; an answer the panel no longer waits for is
 * dropped there.
 */
import * as vscode from 'vscode';
import { matchFiles } from './file-match';

/** Files listed at most (a huge repository still answers quickly; the first ones found are offered). */
const MAX_LISTED = 20_000;
/** A listing taking longer than this is cancelled. */
const LIST_TIMEOUT_MS = 5_000;
/** A listing is reused for this long (files created meanwhile appear after it). */
const LIST_TTL_MS = 10_000;
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/.git/**', '**/dist/**', '**/out/**', '**/.vscode-test*/**', '**/coverage/**'];

function excludeGlob(): string {
  const enabled = (section: string) =>
    Object.entries(vscode.workspace.getConfiguration(section).get<Record<string, unknown>>('exclude') ?? {})
      .filter(([, on]) => on === true)
      .map(([glob]) => glob);
  const globs = [...new Set([...ALWAYS_EXCLUDED, ...enabled('files'), ...enabled('search')])];
  return `{${globs.join(',')}}`;
}

export class WorkspaceFileSearch implements vscode.Disposable {
  private listing: { at: number; paths: Promise<string[]> } | undefined;
  private cancel: vscode.CancellationTokenSource | undefined;

  /** The best matches for `query` (a path relative to the first workspace folder); [] without a folder. */
  async search(query: string): Promise<string[]> {
    return matchFiles(await this.files(), query);
  }

  private files(): Promise<string[]> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return Promise.resolve([]);
    if (this.listing && Date.now() - this.listing.at < LIST_TTL_MS) return this.listing.paths;
    this.cancel?.cancel();
    const source = new vscode.CancellationTokenSource();
    this.cancel = source;
    const timer = setTimeout(() => source.cancel(), LIST_TIMEOUT_MS);
    const paths = Promise.resolve(vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*'), excludeGlob(), MAX_LISTED, source.token))
      .then((uris) => {
        if (source.token.isCancellationRequested) throw new Error(`listing the workspace files took longer than ${LIST_TIMEOUT_MS / 1000} s`);
        return uris.map((u) => vscode.workspace.asRelativePath(u, false)).sort();
      })
      .finally(() => {
        clearTimeout(timer);
        source.dispose();
        if (this.cancel === source) this.cancel = undefined;
      });
    const listing = { at: Date.now(), paths };
    this.listing = listing;
    // a failed listing is not kept: the next key tries again
    paths.catch(() => {
      if (this.listing === listing) this.listing = undefined;
    });
    return paths;
  }

  dispose(): void {
    this.cancel?.cancel();
    this.listing = undefined;
  }
}
