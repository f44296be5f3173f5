/**
 * File access for tools. Depending on the run mode, writes become proposals in the run's change batch
 * (rpc mode and --patch: nothing touches disk before a decision) or are written to disk at once.
 * Reads see proposed content, so the agent sees its own edits.
 */
export interface WorkspaceFiles {
  readonly root: string;
  /** Current content (proposed content when a change is pending), or null when the file does not exist. */
  readText(absPath: string): Promise<string | null>;
  /** Raw bytes for binary detection; null when missing. Honors the overlay the same way. */
  readBytes(absPath: string): Promise<Buffer | null>;
  exists(absPath: string): Promise<boolean>;
  write(absPath: string, content: string): Promise<WriteOutcome>;
  delete(absPath: string): Promise<WriteOutcome>;
  /**
   * Absolute paths created or deleted by pending proposals, so listings and searches can include/exclude them.
   * `modified` (optional) lists files whose proposed content differs from disk, so searches can use the proposal.
   */
  pendingPaths(): { created: string[]; deleted: string[]; modified?: string[] };
}

export interface WriteOutcome {
  /** `proposed`: recorded in the change batch; `written`: on disk now. */
  mode: 'proposed' | 'written';
  changeId?: string;
  kind: 'create' | 'modify' | 'delete';
}
