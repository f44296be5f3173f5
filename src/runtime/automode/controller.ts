import os from 'node:os';
import path from 'node:path';
import { RpcErrorCode } from '../../protocol/errors';
import type { AgentEvent } from '../../protocol/events';
import type { AutomodeIterationLog, AutomodeState, AutomodeStatus } from '../../protocol/automode';
import { summarizeBatch } from '../changes';
import { RuntimeRequestError } from '../agent/errors';
import { newId } from '../agent/ids';
import type { RunOutcome } from '../agent/react-loop';
import type { Session } from '../agent/session';
import { createCompleteTaskTool } from './complete-task-tool';
import { proposeBranchBatch } from './final-batch';
import { commitAll, createWorktree, GitError, type Worktree } from './git-worktree';
import { IterationRecorder, iterationPrompt } from './iteration-log';
import { asSeenNow, AutomodeStateStore } from './state-store';

export const DEFAULT_AUTOMODE_ITERATIONS = 10;
/**
 * Where auto-mode's worktrees go: `~/.cache/agentcli/worktrees` (`$XDG_CACHE_HOME` when set), outside the user's
 * repository and outside `~/.agentcli` (whose files are protected: every write there would ask).
 */
export function worktreesDir(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const cache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(home, '.cache');
  return path.join(cache, 'agentcli', 'worktrees');
}
/** How often a run without a worktree checks whether the batch of its last iteration was decided. */
const BATCH_POLL_MS = 100;

export interface StartAutomodeParams {
  prompt: string;
  maxIterations?: number;
  useWorktree?: boolean;
}

/** How a finished run ended, for the CLI's closing lines. */
export interface AutomodeResult {
  status: AutomodeStatus;
  worktree?: Worktree;
  batchId?: string;
  skipped: string[];
}

interface ActiveAutomode {
  id: string;
  status: AutomodeStatus;
  iterations: AutomodeIterationLog[];
  target: Session;
  worktree?: Worktree;
  pauseRequested: boolean;
  cancelRequested: boolean;
  shutdown: boolean;
  completeSummary?: string;
  /** The run of the iteration under way (cancel aborts that one, never a prompt the host sent between iterations). */
  currentRunId?: string;
  wake?: () => void;
  finished: Promise<AutomodeResult>;
  skipped: string[];
}

/**
 * Auto-mode (spec 001 §3.3): iterations toward a goal, each a full run, until the model calls `complete_task` or
 * `maxIterations` is reached. Without a worktree the iterations run in the user's session (edits are change batches
 * as usual, and each batch is decided before the next iteration); with one they run in a session rooted in a git
 * worktree on `agentcli/auto-<id>`, committed after each iteration, and the branch's diff is offered at the end as one
 * change batch in the user's workspace. Pause, resume and cancel take effect at iteration boundaries (cancel also
 * aborts the iteration under way). The state is saved under ~/.agentcli/state/automode/.
 */
export class AutomodeController {
  private run: ActiveAutomode | undefined;
  private readonly store: AutomodeStateStore;
  private readonly home: string;

  constructor(private readonly session: Session, home?: string) {
    this.home = home ?? session.homeDir ?? os.homedir();
    this.store = new AutomodeStateStore(this.home);
    session.listeners.add((e) => {
      if (e.type === 'session_end' && e.sessionId === session.id) this.shutdown();
    });
  }

  get active(): boolean {
    const s = this.run?.status.state;
    return s === 'running' || s === 'paused';
  }

  /** Resolves when the current run ended (undefined when none was started in this runtime). */
  get finished(): Promise<AutomodeResult> | undefined {
    return this.run?.finished;
  }

  async start(params: StartAutomodeParams): Promise<{ sessionId: string }> {
    if (this.active) {
      throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `auto-mode is already ${this.run?.status.state} (iteration ${this.run?.status.iteration}): cancel it with cancelAutomode first`);
    }
    const goal = params.prompt.trim();
    if (goal === '') throw new RuntimeRequestError(RpcErrorCode.InvalidParams, 'the auto-mode goal (prompt) must not be empty');
    const maxIterations = params.maxIterations ?? DEFAULT_AUTOMODE_ITERATIONS;
    if (this.session.running) {
      throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `run ${this.session.running.runId} is still active: wait for its agent_end or call abort before starting auto-mode`);
    }
    const pending = this.session.store.pending();
    if (pending) {
      throw new RuntimeRequestError(RpcErrorCode.BatchPending, `change batch ${pending.id} is waiting for a decision: call decideChanges before starting auto-mode`);
    }
    const id = newId('automode');
    let worktree: Worktree | undefined;
    if (params.useWorktree) {
      const suffix = id.slice('automode_'.length);
      try {
        worktree = await createWorktree(this.session.cwd, path.join(worktreesDir(this.home), `${path.basename(this.session.cwd)}-${suffix}`), `agentcli/auto-${suffix}`);
      } catch (e) {
        if (e instanceof GitError) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, e.message);
        throw e;
      }
    }
    const target = worktree ? this.session.forkAt(worktree.cwd) : this.session;
    const status: AutomodeStatus = {
      active: true,
      state: 'running',
      iteration: 0,
      maxIterations,
      startedAt: new Date().toISOString(),
      sessionId: target.id,
      goal,
      ...(worktree ? { worktree: worktree.path, branch: worktree.branch } : {}),
    };
    const run: ActiveAutomode = {
      id,
      status,
      iterations: [],
      target,
      ...(worktree ? { worktree } : {}),
      pauseRequested: false,
      cancelRequested: false,
      shutdown: false,
      skipped: [],
      finished: Promise.resolve(undefined as never),
    };
    this.run = run;
    this.persist(run);
    run.finished = this.loop(run);
    return { sessionId: target.id };
  }

  status(): AutomodeStatus {
    if (this.run) return { ...this.run.status };
    const saved = this.store.latestFor(this.session.cwd);
    if (!saved) return { active: false, iteration: 0, maxIterations: 0 };
    const seen = asSeenNow(saved);
    if (seen !== saved) this.store.save(seen); // it says so from now on, to every later runtime too
    return { ...seen.status, active: false };
  }

  log(): { status: AutomodeStatus; iterations: AutomodeIterationLog[] } {
    if (this.run) return { status: this.status(), iterations: this.run.iterations.map((i) => ({ ...i })) };
    const saved = this.store.latestFor(this.session.cwd);
    return { status: this.status(), iterations: saved?.iterations ?? [] };
  }

  pause(): AutomodeStatus {
    if (this.run && this.active) this.run.pauseRequested = true;
    return this.status();
  }

  resume(): AutomodeStatus {
    const run = this.run;
    if (run && this.active) {
      run.pauseRequested = false;
      if (run.status.state === 'paused') {
        run.status.state = 'running';
        this.persist(run);
      }
      run.wake?.();
    }
    return this.status();
  }

  cancel(): AutomodeStatus {
    const run = this.run;
    if (run && this.active) {
      run.cancelRequested = true;
      this.abortIteration(run);
      run.wake?.();
    }
    return this.status();
  }

  private abortIteration(run: ActiveAutomode): void {
    if (run.currentRunId !== undefined && run.target.running?.runId === run.currentRunId) run.target.abort();
  }

  /** The runtime is ending: the run stops where it is (its worktree and branch stay) and is saved as cancelled. */
  shutdown(): void {
    const run = this.run;
    if (!run || !this.active) return;
    run.shutdown = true;
    run.cancelRequested = true;
    this.abortIteration(run);
    run.wake?.();
    this.end(run, 'cancelled', {
      summary: 'cancelled',
      error: `the runtime shut down during iteration ${run.status.iteration}${run.worktree ? `; the worktree ${run.worktree.path} and branch ${run.worktree.branch} stay` : ''}`,
    });
  }

  private persist(run: ActiveAutomode): void {
    try {
      this.store.save({
        id: run.id,
        pid: process.pid,
        cwd: this.session.cwd,
        status: run.status,
        iterations: run.iterations,
        ...(run.worktree ? { base: run.worktree.base } : {}),
        updatedAt: '',
      });
    } catch {
      // the state folder cannot be written: the run goes on, only a later runtime cannot report it
    }
  }

  private end(run: ActiveAutomode, state: AutomodeState, extra: { summary?: string; error?: string; batchId?: string }): void {
    run.status = { ...run.status, active: false, state, ...extra };
    this.persist(run);
  }

  /** Waits at a boundary while paused (or until cancelled). */
  private async boundary(run: ActiveAutomode): Promise<void> {
    if (run.pauseRequested && !run.cancelRequested) {
      run.pauseRequested = false;
      run.status.state = 'paused';
      this.persist(run);
      while (run.status.state === 'paused' && !run.cancelRequested) {
        await new Promise<void>((resolve) => (run.wake = resolve));
      }
      run.wake = undefined;
    }
    // Without a worktree the iterations share the user's session: its batch is decided (and any prompt the host sent
    // in between has ended) before the next iteration starts.
    while (!run.cancelRequested && run.target === this.session && (this.session.running || this.session.store.pending())) {
      await new Promise<void>((resolve) => {
        run.wake = resolve;
        setTimeout(resolve, BATCH_POLL_MS).unref();
      });
      run.wake = undefined;
    }
  }

  private async loop(run: ActiveAutomode): Promise<AutomodeResult> {
    const { target } = run;
    const emit = (draft: Parameters<Session['emit']>[0]) => {
      if (!run.shutdown) target.emit(draft);
    };
    let reason: 'goal_met' | 'max_iterations' | 'cancelled' = 'max_iterations';
    try {
      for (let i = 1; i <= run.status.maxIterations; i++) {
        if (i > 1) await this.boundary(run);
        if (run.cancelRequested) {
          reason = 'cancelled';
          break;
        }
        const outcome = await this.iterate(run, i);
        if (run.shutdown) return this.result(run);
        const entry = run.iterations.at(-1)!;
        emit({ type: 'automode_iteration', iteration: i, maxIterations: run.status.maxIterations, runId: entry.runId, status: outcome.status, summary: entry.summary, toolCalls: entry.toolCalls.length });
        if (run.worktree) await commitAll(run.worktree, `auto-mode iteration ${i}: ${run.status.goal ?? ''}`.slice(0, 200));
        if (run.completeSummary !== undefined) {
          reason = 'goal_met';
          break;
        }
        if (outcome.status === 'aborted' || run.cancelRequested) {
          reason = 'cancelled';
          break;
        }
        if (outcome.status === 'error') throw new Error(`iteration ${i} failed: ${outcome.error?.message ?? 'unknown error'}`);
      }
      let batchId: string | undefined;
      let batch;
      if (run.worktree && reason !== 'cancelled') {
        const proposed = await proposeBranchBatch(this.session, run.worktree, run.iterations.at(-1)?.runId ?? run.id);
        run.skipped = proposed.skipped;
        if (proposed.batch) {
          batchId = proposed.batch.id;
          batch = summarizeBatch(proposed.batch);
        }
      }
      const summary = run.completeSummary ?? (reason === 'cancelled' ? 'cancelled' : `stopped after ${run.status.iteration} iteration(s) (maxIterations) without the goal declared met`);
      this.end(run, reason === 'cancelled' ? 'cancelled' : 'completed', { summary, ...(batchId ? { batchId } : {}) });
      emit({
        type: 'automode_complete',
        state: reason === 'cancelled' ? 'cancelled' : 'completed',
        reason,
        iterations: run.status.iteration,
        summary,
        ...(run.worktree ? { worktree: run.worktree.path, branch: run.worktree.branch } : {}),
        ...(batch ? { batch } : {}),
      });
    } catch (e) {
      if (run.shutdown) return this.result(run);
      const error = (e as Error).message;
      this.end(run, 'failed', { error });
      emit({
        type: 'automode_error',
        iteration: run.status.iteration,
        error,
        ...(run.worktree ? { worktree: run.worktree.path, branch: run.worktree.branch } : {}),
      });
    } finally {
      if (run.target !== this.session) run.target.end();
    }
    return this.result(run);
  }

  private result(run: ActiveAutomode): AutomodeResult {
    return { status: { ...run.status }, ...(run.worktree ? { worktree: run.worktree } : {}), ...(run.status.batchId ? { batchId: run.status.batchId } : {}), skipped: run.skipped };
  }

  /** One iteration: a full run of the target session with `complete_task` offered; its log entry is kept. */
  private async iterate(run: ActiveAutomode, iteration: number): Promise<RunOutcome> {
    const { target } = run;
    run.status.iteration = iteration;
    this.persist(run);
    // A worktree's session follows the permission mode the host set (setPermissionMode, setYolo) from iteration to iteration.
    if (target !== this.session && target.permissionMode !== this.session.permissionMode) target.setPermissionMode(this.session.permissionMode);
    target.extraTools = [createCompleteTaskTool((summary) => (run.completeSummary = summary))];
    const last = run.iterations.at(-1);
    let recorder: IterationRecorder | undefined;
    const early: AgentEvent[] = [];
    const listener = (e: AgentEvent) => (recorder ? recorder.observe(e) : early.push(e));
    target.listeners.add(listener);
    try {
      const active = target.startRun({ message: iterationPrompt(run.status.goal ?? '', iteration, run.status.maxIterations, last) });
      run.currentRunId = active.runId;
      recorder = new IterationRecorder(iteration, active.runId);
      for (const e of early) recorder.observe(e);
      run.iterations.push(recorder.entry);
      this.persist(run);
      const outcome = await active.done;
      recorder.finish(outcome.status, run.completeSummary, outcome.error?.message);
      this.persist(run);
      return outcome;
    } finally {
      target.listeners.delete(listener);
      target.extraTools = [];
    }
  }
}
