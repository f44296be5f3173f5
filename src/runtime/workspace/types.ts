/**
 * File access for tools. Depending on the run mode, writes become proposals in the run's change batch
 * (rpc mode and --patch: nothing touches disk before a decision) or are written to disk at once.
 * Reads see proposed content, so the agent sees its own edits.
 */
export interface WorkspaceFiles {
  readonly root: string;
  /** Current content (proposed content when a change is pending), or null when the file does not exist. */
  readText(absPath: string): Promise<string | null>;
  /**
   * Raw bytes for binary detection; null when missing. Honors the overlay the same way. With `maxBytes`, a file on
   * disk larger than that is not read: a FileTooLargeError (checked with stat first) says how to see part of it.
   */
  readBytes(absPath: string, opts?: { maxBytes?: number }): Promise<Buffer | null>;
  exists(absPath: string): Promise<boolean>;
  /**
   * Whether reading `absPath` gives exactly its bytes on disk (no proposal over it, no editor buffer in between), so a
   * tool may page through a large file with its own file handle instead of reading it whole.
   */
  readsFromDisk(absPath: string): boolean;
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

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** A file too large to read whole; the message gives its size, the cap, and what to use instead. */
export class FileTooLargeError extends Error {
  constructor(readonly size: number, readonly maxBytes: number) {
    super(
      `the file is ${formatSize(size)} (${size} bytes), over the ${formatSize(maxBytes)} limit for reading a whole file; ` +
        'to see part of it use grep to find lines, or run_command with `head -n 200 <file>`, `tail -n 200 <file>` or ' +
        "`sed -n '1000,1200p' <file>`",
    );
    this.name = 'FileTooLargeError';
  }
}
