
/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a tool first runs, not at CLI start */
const childProcess = () => require('node:child_process') as typeof import('node:child_process');
/* eslint-enable @typescript-eslint/no-require-imports */
/** Time between SIGTERM and SIGKILL when stopping a command's process group. */
export const KILL_GRACE_MS = 2000;
/** After the shell exits, how long to wait for background children still holding its output pipes. */
const PIPE_DRAIN_MS = 500;

export interface GroupRunOptions {
  /** The program and its arguments (`bash -c <command>`, or the sandbox wrapping it). */
  file: string;
  args: readonly string[];
  /** The whole environment of the process (not merged with the runtime's). */
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  onOutput(chunk: string): void;
  /** Written to the program's stdin, which is then closed (default: no stdin). */
  input?: string;
  /** Receives stderr apart from stdout (default: both go to `onOutput`). */
  onStderr?(chunk: string): void;
}

export interface GroupRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stoppedBy: 'timeout' | 'abort' | null;
  /** Background processes kept the output open after the shell exited; later output was not captured. */
  detachedOutput: boolean;
  spawnError?: string;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Run the program as the leader of its own process group, stream its output, and on timeout or abort
 * stop the whole group: SIGTERM, then SIGKILL after a grace period.
 */
export function runInProcessGroup(options: GroupRunOptions): Promise<GroupRunResult> {
  return new Promise((resolve) => {
    const child = childProcess().spawn(options.file, [...options.args], {
      cwd: options.cwd,
      detached: true,
      stdio: [options.input !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: options.env,
    });
    let stoppedBy: GroupRunResult['stoppedBy'] = null;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;

    const stop = (reason: 'timeout' | 'abort') => {
      if (stoppedBy || exit || child.pid === undefined) return;
      stoppedBy = reason;
      const pid = child.pid;
      killGroup(pid, 'SIGTERM');
      killTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timeout = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (detachedOutput: boolean, spawnError?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
      if (detachedOutput) {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      // A group stopped by us still gets its SIGKILL when the grace period ends, without holding the event loop.
      killTimer?.unref();
      resolve({ exitCode: exit?.code ?? null, signal: exit?.signal ?? null, stoppedBy, detachedOutput, spawnError });
    };

    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      stream.setEncoding('utf8');
      const sink = stream === child.stderr && options.onStderr ? options.onStderr : options.onOutput;
      stream.on('data', (chunk: string) => sink(chunk));
    }
    if (options.input !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // a program that exits without reading its input
      child.stdin.end(options.input);
    }
    child.on('error', (err) => finish(false, err.message));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      drainTimer = setTimeout(() => finish(true), stoppedBy ? KILL_GRACE_MS + PIPE_DRAIN_MS : PIPE_DRAIN_MS);
    });
    child.on('close', () => finish(false));
    if (options.signal.aborted) onAbort();
  });
}
