// Where the machine's CPU goes during a stretch of the editor bench (not a test): the time each process ran, and the
// time it was ready but waited for a core, from Linux's per-thread scheduler statistics (/proc/<pid>/task/<tid>/schedstat,
// nanoseconds), grouped by the part each process plays. The window renderer's main thread is counted on its own as well:
// it runs the workbench and relays every message to and from the panel, and nothing there can run while it is busy.
import { readFileSync, readdirSync } from 'node:fs';

/** What a process is to the editor bench, from its command line. */
export type Role = 'window renderer main thread' | 'renderers' | 'browser + GPU' | 'extension host' | 'code-server' | 'runtime' | 'model stub' | 'other';

export interface CpuTimes {
  run: number;
  wait: number;
}

type Snapshot = Map<string, CpuTimes & { role: Role }>;

function roleOf(cmdline: string): Role {
  // Chromium's child processes rewrite their command line as one string, so this reads the whole of it.
  if (/chromium/.test(cmdline)) return /--type=renderer/.test(cmdline) ? 'renderers' : 'browser + GPU';
  if (/--type=extensionHost/.test(cmdline)) return 'extension host';
  if (/agentcli\.js/.test(cmdline)) return 'runtime';
  if (/editor-model/.test(cmdline)) return 'model stub';
  if (/code-server|bootstrap-fork|server-main/.test(cmdline)) return 'code-server';
  return 'other';
}

function threadTimes(pid: string, tid: string): CpuTimes {
  const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
  return { run: run ?? 0, wait: wait ?? 0 };
}

/** Every process's (and each renderer main thread's) CPU so far; the bench's own process is left out. */
export function cpuSnapshot(): Snapshot {
  const out: Snapshot = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const role = roleOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
      const total: CpuTimes = { run: 0, wait: 0 };
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const t = threadTimes(pid, tid);
        total.run += t.run;
        total.wait += t.wait;
      }
      out.set(pid, { role, ...total });
      if (role === 'renderers') out.set(`${pid}/main`, { role: 'window renderer main thread', ...threadTimes(pid, pid) });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/**
 * What ran between two snapshots, per role, in ms. Of the renderer main threads, the busiest one is the window's (the
 * panel's frames share its process: code-server serves them from the workbench's own origin).
 */
export function cpuBetween(before: Snapshot, after: Snapshot): Map<Role, CpuTimes> {
  const out = new Map<Role, CpuTimes>();
  let mainThread: CpuTimes = { run: 0, wait: 0 };
  for (const [key, a] of after) {
    const b = before.get(key);
    if (b === undefined) continue;
    const d = { run: (a.run - b.run) / 1e6, wait: (a.wait - b.wait) / 1e6 };
    if (a.role === 'window renderer main thread') {
      if (d.run > mainThread.run) mainThread = d;
      continue;
    }
    const sum = out.get(a.role) ?? { run: 0, wait: 0 };
    out.set(a.role, { run: sum.run + d.run, wait: sum.wait + d.wait });
  }
  out.set('window renderer main thread', mainThread);
  return out;
}
