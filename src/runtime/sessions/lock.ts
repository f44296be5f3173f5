/**
 * One runtime at a time holds a saved session: `<id>.lock` holds the holder's process id. A lock whose process is gone
 * (killed, crashed) is not held: the next runtime takes it over.
 */
import fs from 'node:fs';
import { uniqueSuffix } from '../unique-id';

export type LockResult = { locked: true } | { locked: false; holderPid: number };

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

function readHolder(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isNaN(pid) ? undefined : pid;
  } catch {
    return undefined;
  }
}

/** Creates the lock file atomically (a fully written temp file hard-linked into place: never half-written). */
function tryCreate(file: string): boolean {
  const tmp = `${file}.${uniqueSuffix()}.tmp`;
  fs.writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Takes the lock for this process; `holderPid` names the live process that holds it otherwise. */
export function acquireLock(file: string): LockResult {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file)) return { locked: true };
    const holder = readHolder(file);
    if (holder === process.pid) return { locked: true };
    if (holder !== undefined && processAlive(holder)) return { locked: false, holderPid: holder };
    // The holder is gone: move its lock aside (only one contender's rename succeeds) and try again.
    const stale = `${file}.${uniqueSuffix()}.stale`;
    try {
      fs.renameSync(file, stale);
    } catch {
      continue; // another runtime moved it first
    }
    const moved = readHolder(stale);
    if (moved !== undefined && moved !== holder && processAlive(moved)) {
      // Between our read and the rename another runtime took the lock over: give it back.
      try {
        fs.linkSync(stale, file);
      } catch {
        // a third runtime holds it now
      }
      fs.rmSync(stale, { force: true });
      return { locked: false, holderPid: moved };
    }
    fs.rmSync(stale, { force: true });
  }
  return { locked: false, holderPid: readHolder(file) ?? -1 };
}

/** Is the lock held by a live process other than this one? */
export function lockedByOther(file: string): boolean {
  const holder = readHolder(file);
  return holder !== undefined && holder !== process.pid && processAlive(holder);
}

/** Releases the lock when this process holds it. */
export function releaseLock(file: string): void {
  if (readHolder(file) === process.pid) fs.rmSync(file, { force: true });
}
