import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { RuntimeStartError } from './errors';
import type { LaunchPlan } from './launch';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  stderrTail: string[];
}

const STDERR_TAIL_LINES = 40;
/** After `exit`, wait this long for the stdio pipes to drain before reporting the exit anyway. */
const DRAIN_AFTER_EXIT_MS = 250;

/**
 * The runtime subprocess: spawning, stderr collection (kept as a tail of lines), exit detection and
 * the stop escalation (close stdin, then SIGTERM, then SIGKILL, each after a grace period).
 */
export class RuntimeProcess {
  readonly stderrTail: string[] = [];
  private exitInfo: ExitInfo | undefined;
  private readonly exited: Promise<ExitInfo>;
  private resolveExited!: (info: ExitInfo) => void;
  private partialLine = '';

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    private readonly onStderrLine: (line: string) => void,
  ) {
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.takeStderr(chunk));
    let drainTimer: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      drainTimer = setTimeout(() => this.finish(code, signal), DRAIN_AFTER_EXIT_MS);
      drainTimer.unref();
    });
    child.on('close', (code, signal) => {
      if (drainTimer) clearTimeout(drainTimer);
      this.finish(code, signal);
    });
    // Writes after the child died raise EPIPE on stdin; the exit path reports the real cause.
    child.stdin.on('error', () => {});
  }

  /** Spawns the runtime and resolves once the OS confirmed the process started. */
  static async spawn(plan: LaunchPlan, onStderrLine: (line: string) => void): Promise<RuntimeProcess> {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(plan.command, plan.args, { cwd: plan.cwd, env: plan.env, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      throw new RuntimeStartError(`could not start the runtime (${plan.command} ${plan.cliPath}): ${(e as Error).message}`, { cause: e });
    }
    await new Promise<void>((resolve, reject) => {
      const onSpawn = () => {
        child.off('error', onError);
        resolve();
      };
      const onError = (e: Error) => {
        child.off('spawn', onSpawn);
        reject(
          new RuntimeStartError(
            `could not start the runtime with "${plan.command}" (check the nodePath option): ${e.message}`,
            { cause: e },
          ),
        );
      };
      child.once('spawn', onSpawn);
      child.once('error', onError);
    });
    child.on('error', () => {}); // later errors (e.g. kill on a dead pid) surface through exit
    return new RuntimeProcess(child, onStderrLine);
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  get exitedInfo(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /** Resolves when the process is gone and its pipes are drained (or shortly after exit). */
  whenExited(): Promise<ExitInfo> {
    return this.exited;
  }

  /** Close stdin, then SIGTERM, then SIGKILL, waiting `graceMs` between steps. Safe to call repeatedly. */
  async stop(graceMs: number): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.stdin.end();
    if (await this.exitsWithin(graceMs)) return this.exited;
    this.child.kill('SIGTERM');
    if (await this.exitsWithin(graceMs)) return this.exited;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private takeStderr(chunk: string): void {
    const text = this.partialLine + chunk;
    const lines = text.split('\n');
    this.partialLine = lines.pop() ?? '';
    for (const line of lines) this.addStderrLine(line.replace(/\r$/, ''));
  }

  private addStderrLine(line: string): void {
    if (line.length === 0) return;
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    this.onStderrLine(line);
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.exitInfo) return;
    if (this.partialLine !== '') {
      this.addStderrLine(this.partialLine);
      this.partialLine = '';
    }
    this.exitInfo = { code, signal, stderrTail: [...this.stderrTail] };
    this.resolveExited(this.exitInfo);
  }
}
