/**
 * Applying the accepted changes of a batch: journaled first (see journal.ts), then each file checked and written.
 * Per file: a path that now resolves elsewhere through a symlink is `failed` (nothing written, the real target named),
 * a file that changed on disk since the proposal is `stale`, otherwise it is written atomically (`applied`).
 */
import type { ChangeResult } from '../../protocol/records';
import { realPathOf } from '../workspace/paths';
import { deleteFileIfExists, readTextOrNull, writeFileAtomic } from './atomic-write';
import { ApplyJournal, missingDirs, modeOf, type JournalEntry } from './journal';
import { assertResolvesToItself, describeRedirect, SymlinkRedirectError } from './safe-target';

export interface ApplicableChange {
  id: string;
  path: string;
  absolutePath: string;
  originalContent: string | null;
  proposedContent: string | null;
}

export interface ApplyOptions {
  root: string;
  stateDir: string;
  /** A file was written; `entry` is its journal entry (content before and after, mode, folders the write created). */
  onFileWritten?: (change: ApplicableChange, entry: JournalEntry) => void;
}

/** TEST ONLY: `AGENTCLI_TEST_APPLY_DELAY_MS` pauses after each written file, so a test can kill a runtime mid-apply. */
function testDelayMs(): number {
  const raw = process.env.AGENTCLI_TEST_APPLY_DELAY_MS;
  const ms = raw === undefined ? 0 : Number(raw);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 60_000) : 0;
}

function entryOf(change: ApplicableChange): JournalEntry {
  const mode = change.originalContent === null ? undefined : modeOf(change.absolutePath);
  return {
    changeId: change.id,
    path: change.path,
    absolutePath: change.absolutePath,
    original: change.originalContent,
    proposed: change.proposedContent,
    ...(mode === undefined ? {} : { mode }),
    createdDirs: change.proposedContent === null ? [] : missingDirs(change.absolutePath),
  };
}

function errorText(err: unknown, change: ApplicableChange, root: string): string {
  if (err instanceof SymlinkRedirectError) return describeRedirect(change.path, err, root);
  return err instanceof Error ? err.message : String(err);
}

async function applyOne(change: ApplicableChange, journal: ApplyJournal, root: string): Promise<ChangeResult> {
  const base = { changeId: change.id, path: change.path };
  try {
    // Before reading: reading through a swapped symlink would already look outside the workspace.
    assertResolvesToItself(change.absolutePath);
    const onDisk = await readTextOrNull(change.absolutePath);
    if (onDisk !== change.originalContent) {
      const what = change.originalContent === null ? 'now exists' : onDisk === null ? 'was deleted' : 'was modified';
      return { ...base, status: 'stale', error: `${change.path} ${what} on disk since the change was proposed; not written` };
    }
    await journal.willWrite(change.id);
    if (change.proposedContent === null) await deleteFileIfExists(change.absolutePath);
    else await writeFileAtomic(change.absolutePath, change.proposedContent);
  } catch (err) {
    return { ...base, status: 'failed', error: errorText(err, change, root) };
  }
  return { ...base, status: 'applied' };
}

/**
 * Applies `changes` (all accepted) in order and answers one result per change, by change id. When the journal cannot
 * be written nothing is applied and every change is `failed` with the reason.
 */
export async function applyChanges(batchId: string, changes: ApplicableChange[], opts: ApplyOptions): Promise<Map<string, ChangeResult>> {
  const results = new Map<string, ChangeResult>();
  if (changes.length === 0) return results;
  const realRoot = realPathOf(opts.root);
  let journal: ApplyJournal;
  const entries = changes.map(entryOf);
  try {
    journal = await ApplyJournal.begin(opts.stateDir, { root: realRoot, batchId, entries });
  } catch (err) {
    const error =
      `could not record the apply journal in ${opts.stateDir} (${(err as Error).message}); nothing was written. ` +
      'Make that folder writable (it is ~/.agentcli/state) and accept again.';
    for (const c of changes) results.set(c.id, { changeId: c.id, path: c.path, status: 'failed', error });
    return results;
  }
  const delay = testDelayMs();
  for (const [i, change] of changes.entries()) {
    const result = await applyOne(change, journal, opts.root);
    results.set(change.id, result);
    if (result.status === 'applied') opts.onFileWritten?.(change, entries[i]!);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  }
  // Left behind only if the state folder broke meanwhile; its `done` mark (or the files' contents) keep recovery right.
  await journal.complete().catch(() => undefined);
  return results;
}
