/**
 * The apply journal: before a change batch touches its first file, what it is about to do (every accepted change with
 * its original and proposed content) is written and fsynced to `<state>/apply-journal/<workspace key>/`, where
 * `<state>` is `~/.agentcli/state` (outside the workspace, so no repository ever holds it). Each file about to be
 * written is appended to a progress log first, and `done` when the batch is through; the journal is then deleted.
 * A runtime killed mid-apply leaves the journal behind, and the next runtime in that workspace rolls the batch back
 * (see apply-recovery.ts).
 */
import { existsSync, promises as fs, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface JournalEntry {
  changeId: string;
  /** Workspace-relative path as the host knows it. */
  path: string;
  absolutePath: string;
  original: string | null;
  proposed: string | null;
  /** Permission bits of the original file, to restore a deleted file as it was. */
  mode?: number;
  /** Folders the write creates (outermost first), removed again on rollback when left empty. */
  createdDirs: string[];
}

export interface JournalData {
  version: 1;
  /** Real path of the workspace root. */
  root: string;
  batchId: string;
  /** The process applying the batch; a journal of a live process is never recovered. */
  pid: number;
  startedAt: string;
  entries: JournalEntry[];
}

/** `~/.agentcli/state`: the default folder of the runtime's own state. */
export function defaultStateDir(): string {
  return path.join(os.homedir(), '.agentcli', 'state');
}

/** 32-bit FNV-1a of a string as 8 hex digits (no node:crypto: it would add its load time to every start). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The journal folder of one workspace: its name (for people looking) and a hash of its real path. */
export function journalDir(stateDir: string, realRoot: string): string {
  const name = path.basename(realRoot).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'root';
  return path.join(stateDir, 'apply-journal', `${name}-${fnv1a(realRoot)}`);
}

export const journalFileName = (batchId: string, pid: number) => `${batchId}.${pid}.json`;
export const progressFileName = (batchId: string) => `${batchId}.progress`;
/** `<batchId>.<pid>.json`: group 1 is the batch id, group 2 the owning process. */
export const JOURNAL_FILE_PATTERN = /^(.+)\.(\d+)\.json$/;

/** Folders missing on the way to `absPath` (outermost first): the ones a write there would create. */
export function missingDirs(absPath: string): string[] {
  const dirs: string[] = [];
  let dir = path.dirname(absPath);
  while (!existsSync(dir)) {
    dirs.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return dirs;
}

export function modeOf(absPath: string): number | undefined {
  try {
    return statSync(absPath).mode & 0o7777;
  } catch {
    return undefined;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `file` durably: a temp file, fsynced, renamed into place, and the folder fsynced. */
export async function writeDurably(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.writing`;
  const handle = await fs.open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await fsyncDir(path.dirname(file));
}

/** The journal of one batch being applied by this process. */
export class ApplyJournal {
  private constructor(
    private readonly dir: string,
    private readonly data: JournalData,
    private readonly progress: fs.FileHandle,
  ) {}

  /** Records the batch durably; nothing of it may be written before this resolves. */
  static async begin(stateDir: string, data: Omit<JournalData, 'version' | 'pid' | 'startedAt'>): Promise<ApplyJournal> {
    const full: JournalData = { version: 1, pid: process.pid, startedAt: new Date().toISOString(), ...data };
    const dir = journalDir(stateDir, data.root);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const progress = await fs.open(path.join(dir, progressFileName(data.batchId)), 'w', 0o600);
    try {
      await progress.sync();
      await writeDurably(path.join(dir, journalFileName(data.batchId, process.pid)), JSON.stringify(full));
    } catch (err) {
      await progress.close().catch(() => undefined);
      throw err;
    }
    return new ApplyJournal(dir, full, progress);
  }

  /** Called before the file of `changeId` is touched. */
  async willWrite(changeId: string): Promise<void> {
    await this.progress.appendFile(`write ${changeId}\n`, 'utf8');
    await this.progress.datasync();
  }

  /** Every file is through: marks the batch done, then deletes the journal. */
  async complete(): Promise<void> {
    try {
      await this.progress.appendFile('done\n', 'utf8');
      await this.progress.datasync();
    } catch {
      // removing the journal below is what counts
    } finally {
      await this.progress.close().catch(() => undefined);
    }
    await fs.rm(path.join(this.dir, journalFileName(this.data.batchId, this.data.pid)), { force: true });
    await fs.rm(path.join(this.dir, progressFileName(this.data.batchId)), { force: true });
    await fs.rmdir(this.dir).catch(() => undefined);
  }
}

/** What the progress log says: the changes whose file was about to be written, and whether the batch finished. */
export function parseProgress(text: string): { started: Set<string>; done: boolean } {
  const started = new Set<string>();
  let done = false;
  for (const line of text.split('\n')) {
    if (line === 'done') done = true;
    else if (line.startsWith('write ')) started.add(line.slice('write '.length));
  }
  return { started, done };
}

/** True when a process with this id runs (one of another user counts as running). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
