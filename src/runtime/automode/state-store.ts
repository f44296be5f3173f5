import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AutomodeIterationLog, AutomodeStatus } from '../../protocol/automode';

/** What is saved of an auto-mode run, so a runtime started later can say how it ended (or that it was cut off). */
export interface SavedAutomode {
  id: string;
  /** The runtime process running it. */
  pid: number;
  /** The user's workspace it was started in. */
  cwd: string;
  status: AutomodeStatus;
  iterations: AutomodeIterationLog[];
  /** The worktree's base commit (useWorktree). */
  base?: string;
  updatedAt: string;
}

const ID = /^automode_[a-z0-9]{4,64}$/i;

/** `~/.agentcli/state/automode/<id>.json`, written atomically at each change of state. */
export class AutomodeStateStore {
  readonly dir: string;

  constructor(home: string) {
    this.dir = path.join(home, '.agentcli', 'state', 'automode');
  }

  save(run: SavedAutomode): void {
    if (!ID.test(run.id)) throw new Error(`not an auto-mode id: ${JSON.stringify(run.id)}`);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${run.id}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ ...run, updatedAt: new Date().toISOString() }), { mode: 0o600 });
    renameSync(tmp, file);
  }

  /** The newest saved run started in `cwd`, or undefined (unreadable files are skipped). */
  latestFor(cwd: string): SavedAutomode | undefined {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith('.json') && ID.test(n.slice(0, -5)));
    } catch {
      return undefined;
    }
    let best: SavedAutomode | undefined;
    for (const name of names) {
      const run = this.read(path.join(this.dir, name));
      if (!run || run.cwd !== cwd) continue;
      if (!best || (run.status.startedAt ?? '') > (best.status.startedAt ?? '')) best = run;
    }
    return best;
  }

  private read(file: string): SavedAutomode | undefined {
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as SavedAutomode;
      return typeof data.id === 'string' && typeof data.pid === 'number' && data.status && Array.isArray(data.iterations) ? data : undefined;
    } catch {
      return undefined;
    }
  }
}

export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A saved run as this runtime reports it: one that was running or paused in a process that is gone was cut off, so it
 * is `failed` with `interrupted` and an error naming what was left (its worktree and branch stay as they were).
 */
export function asSeenNow(run: SavedAutomode): SavedAutomode {
  const { state } = run.status;
  if ((state !== 'running' && state !== 'paused') || processAlive(run.pid)) return run;
  const left = run.status.worktree ? `; its worktree ${run.status.worktree} and branch ${run.status.branch ?? ''} are left as they were (review or merge the branch, or remove them with git worktree remove)` : '';
  return {
    ...run,
    status: {
      ...run.status,
      active: false,
      state: 'failed',
      interrupted: true,
      error: `the runtime running auto-mode (pid ${run.pid}) stopped during iteration ${run.status.iteration} of ${run.status.maxIterations}${left}`,
    },
  };
}
