/**
 * Recovery of change batches a runtime did not finish applying (killed mid-apply). Policy: roll back. The user
 * accepted the batch in a session that is gone; the files it had already written are restored to their originals, so
 * the workspace is as the user last reviewed it and the batch can be proposed again. A batch whose progress log says
 * `done` had written every file and only lost its journal: it is reported `completed` and nothing is touched.
 * A file someone changed since (neither the original nor the proposed content) is left as it is and reported.
 */
import { promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import type { RecoveredApply } from '../../protocol/records';
import { deleteFileIfExists, readTextOrNull, writeFileAtomic } from './atomic-write';
import {
  isProcessAlive,
  JOURNAL_FILE_PATTERN,
  journalDir,
  journalFileName,
  parseProgress,
  progressFileName,
  type JournalData,
  type JournalEntry,
} from './journal';
import { assertResolvesToItself, SymlinkRedirectError } from './safe-target';

type RecoveredFile = RecoveredApply['files'][number];

/** Journals of dead processes in this workspace's journal folder, claimed for this process (renamed to our pid). */
async function claimOrphans(dir: string): Promise<Array<{ batchId: string; file: string }>> {
  let names: string[];
  try {
    // Every session starts here, before its first request, and the folder is usually missing. Synchronous: the first
    // asynchronous fs call starts libuv's thread pool, and fs.promises would load node:fs/promises.
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const claimed: Array<{ batchId: string; file: string }> = [];
  for (const name of names) {
    const match = JOURNAL_FILE_PATTERN.exec(name);
    if (!match?.[1] || !match[2]) continue;
    const pid = Number(match[2]);
    // This process's own journals are batches it is applying now (another store in the same process).
    if (pid === process.pid || isProcessAlive(pid)) continue;
    const file = path.join(dir, journalFileName(match[1], process.pid));
    try {
      // Atomic: of two runtimes starting at once, one claims the journal and the other finds it gone.
      await fs.rename(path.join(dir, name), file);
      claimed.push({ batchId: match[1], file });
    } catch {
      // claimed by another runtime
    }
  }
  return claimed;
}

/** Removes `dirs` (outermost first) from the innermost out, stopping at the first that is not empty. */
export async function removeEmptyDirs(dirs: string[]): Promise<void> {
  for (const dir of [...dirs].reverse()) {
    try {
      await fs.rmdir(dir);
    } catch {
      return; // not empty (or gone): the folders around it are not empty either
    }
  }
}

async function rollBackEntry(entry: JournalEntry): Promise<RecoveredFile> {
  const base = { changeId: entry.changeId, path: entry.path };
  try {
    assertResolvesToItself(entry.absolutePath);
    const current = await readTextOrNull(entry.absolutePath);
    if (current === entry.original) return { ...base, status: 'unchanged' };
    if (current !== entry.proposed) {
      return { ...base, status: 'conflict', error: `${entry.path} was changed by someone else after the interrupted apply; left as it is` };
    }
    if (entry.original === null) {
      await deleteFileIfExists(entry.absolutePath);
      await removeEmptyDirs(entry.createdDirs);
    } else {
      await writeFileAtomic(entry.absolutePath, entry.original, entry.mode === undefined ? {} : { mode: entry.mode });
    }
    return { ...base, status: 'restored' };
  } catch (err) {
    const why =
      err instanceof SymlinkRedirectError
        ? `${entry.path} now resolves through a symlink to ${err.realTarget}; not restored`
        : `${entry.path} could not be restored: ${(err as Error).message}`;
    return { ...base, status: 'conflict', error: why };
  }
}

async function recoverOne(
  dir: string,
  batchId: string,
  file: string,
  realRoot: string,
  found: { folders: Set<string>; pids: Set<number> },
): Promise<RecoveredApply | undefined> {
  let data: JournalData;
  try {
    data = JSON.parse(await fs.readFile(file, 'utf8')) as JournalData;
  } catch {
    // Journals are renamed into place whole, so this one was not written by a runtime: set it aside.
    await fs.rename(file, `${file}.unreadable`).catch(() => undefined);
    return undefined;
  }
  if (data.version !== 1 || data.root !== realRoot || data.batchId !== batchId) return undefined;
  for (const entry of data.entries) found.folders.add(path.dirname(entry.absolutePath));
  if (Number.isInteger(data.pid)) found.pids.add(data.pid);
  const progressFile = path.join(dir, progressFileName(batchId));
  const progress = parseProgress(await fs.readFile(progressFile, 'utf8').catch(() => ''));
  let result: RecoveredApply;
  if (progress.done) {
    const files = data.entries.map((e): RecoveredFile => ({ changeId: e.changeId, path: e.path, status: 'applied' }));
    result = { batchId, outcome: 'completed', startedAt: data.startedAt, files };
  } else {
    const files: RecoveredFile[] = [];
    // Newest first, so a folder created by one file is removed after the files in it.
    for (const entry of [...data.entries].reverse()) {
      files.unshift(progress.started.has(entry.changeId) ? await rollBackEntry(entry) : { changeId: entry.changeId, path: entry.path, status: 'unchanged' });
    }
    result = { batchId, outcome: 'rolled_back', startedAt: data.startedAt, files };
  }
  await fs.rm(file, { force: true });
  await fs.rm(progressFile, { force: true });
  return result;
}

/**
 * Finishes what dead runtimes left in the apply journal of the workspace `realRoot`: each of their batches is rolled
 * back (or found completed), and its journal removed. Journals of running processes are left alone. `folders` are the
 * folders of the recovered batches' files, where their temp files may be left, and `deadPids` the processes that
 * applied them (known dead).
 */
export async function recoverInterruptedApplies(
  realRoot: string,
  stateDir: string,
): Promise<{ recovered: RecoveredApply[]; folders: string[]; deadPids: number[] }> {
  const dir = journalDir(stateDir, realRoot);
  const recovered: RecoveredApply[] = [];
  const found = { folders: new Set<string>(), pids: new Set<number>() };
  for (const { batchId, file } of await claimOrphans(dir)) {
    const result = await recoverOne(dir, batchId, file, realRoot, found);
    if (result) recovered.push(result);
  }
  if (recovered.length > 0) await fs.rmdir(dir).catch(() => undefined);
  return { recovered, folders: [...found.folders], deadPids: [...found.pids] };
}

/** One line per recovered batch, for a terminal: what happened and which files need a look. */
export function describeRecovered(recovered: RecoveredApply[]): string {
  return recovered
    .map((r) => {
      const count = (s: RecoveredFile['status']) => r.files.filter((f) => f.status === s).length;
      const conflicts = r.files.filter((f) => f.status === 'conflict');
      const head =
        r.outcome === 'completed'
          ? `change batch ${r.batchId} (applying since ${r.startedAt}) had been written completely before the runtime stopped`
          : `change batch ${r.batchId} was interrupted mid-apply (since ${r.startedAt}); rolled back: ${count('restored')} file(s) restored to their originals, ${count('unchanged')} untouched`;
      const tail = conflicts.length > 0 ? `; left as they are: ${conflicts.map((f) => f.error ?? f.path).join('; ')}` : '';
      return head + tail;
    })
    .join('\n');
}
