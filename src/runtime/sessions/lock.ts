/**
 * One runtime at a time holds a saved session: `<id>.lock` holds the holder's process id and, on Linux, the process's
 * start time (so a later process that got the same id is not taken for the holder). A lock whose process is gone
 * (killed, crashed) is not held: the next runtime takes it over. Locks still held are removed when the process exits.
 */
import fs from 'node:fs';
import { uniqueSuffix } from '../unique-id';

export type LockResult = { locked: true } | { locked: false; holderPid: number };

interface Holder {
  pid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined where there is no /proc. */
  start?: string;
}

function startTimeOf(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

let selfHolder: Holder | undefined;
/** This process as a holder, read once when a lock is first taken or checked (not at every start). */
function thisProcess(): Holder {
  if (!selfHolder) {
    const start = startTimeOf(process.pid);
    selfHolder = { pid: process.pid, ...(start ? { start } : {}) };
  }
  return selfHolder;
}

function processAlive(h: Holder): boolean {
  if (!Number.isInteger(h.pid) || h.pid <= 0) return false;
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false; // EPERM: alive, owned by someone else
  }
  if (h.start === undefined) return true;
  const now = startTimeOf(h.pid);
  return now === undefined || now === h.start;
}

function readHolder(file: string): Holder | undefined {
  try {
    const [pid, start] = fs.readFileSync(file, 'utf8').trim().split(/\s+/);
    const n = Number.parseInt(pid ?? '', 10);
    return Number.isNaN(n) ? undefined : { pid: n, ...(start ? { start } : {}) };
  } catch {
    return undefined;
  }
}

const isSelf = (h: Holder | undefined) => h !== undefined && h.pid === thisProcess().pid && (h.start === undefined || h.start === thisProcess().start);

/** Lock files this process holds, removed at exit. */
const held = new Set<string>();
let exitHook = false;

function remember(file: string): void {
  held.add(file);
  if (exitHook) return;
  exitHook = true;
  process.on('exit', () => {
    for (const f of held) {
      try {
        if (isSelf(readHolder(f))) fs.rmSync(f, { force: true });
      } catch {
        // leaving anyway
      }
    }
  });
}

/** Creates the lock file atomically (a fully written temp file hard-linked into place: never half-written). */
function tryCreate(file: string): boolean {
  const tmp = `${file}.${uniqueSuffix()}.tmp`;
  const me = thisProcess();
  fs.writeFileSync(tmp, `${me.pid}${me.start ? ` ${me.start}` : ''}\n`, { mode: 0o600 });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    // unlink, not rmSync: in Node 20 every rmSync loads the rimraf module first (a start's first file removal)
    try {
      fs.unlinkSync(tmp);
    } catch {
      // gone already
    }
  }
}

/** Takes the lock for this process; `holderPid` names the live process that holds it otherwise. */
export function acquireLock(file: string): LockResult {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(file)) {
      remember(file);
      return { locked: true };
    }
    const holder = readHolder(file);
    if (isSelf(holder)) {
      remember(file);
      return { locked: true };
    }
    if (holder !== undefined && processAlive(holder)) return { locked: false, holderPid: holder.pid };
    // The holder is gone: move its lock aside (only one contender's rename succeeds) and try again.
    const stale = `${file}.${uniqueSuffix()}.stale`;
    try {
      fs.renameSync(file, stale);
    } catch {
      continue; // another runtime moved it first
    }
    const moved = readHolder(stale);
    if (moved !== undefined && moved.pid !== holder?.pid && processAlive(moved)) {
      // Between our read and the rename another runtime took the lock over: give it back.
      try {
        fs.linkSync(stale, file);
      } catch {
        // a third runtime holds it now
      }
      fs.rmSync(stale, { force: true });
      return { locked: false, holderPid: moved.pid };
    }
    fs.rmSync(stale, { force: true });
  }
  return { locked: false, holderPid: readHolder(file)?.pid ?? -1 };
}

/** Is the lock held by a live process other than this one? */
export function lockedByOther(file: string): boolean {
  const holder = readHolder(file);
  return holder !== undefined && !isSelf(holder) && processAlive(holder);
}

/** Releases the lock when this process holds it. */
export function releaseLock(file: string): void {
  held.delete(file);
  if (isSelf(readHolder(file))) fs.rmSync(file, { force: true });
}
