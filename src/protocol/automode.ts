import * as z from './zod';
import { MAX_AUTOMODE_ITERATIONS } from './limits';
import { ChangeBatch } from './records';

export { MAX_AUTOMODE_ITERATIONS };

/**
 * Where an auto-mode run is: `running` (an iteration is under way or about to start), `paused` (waits at an iteration
 * boundary for `resumeAutomode`), `completed` (the model called `complete_task`, or `maxIterations` was reached),
 * `cancelled` (`cancelAutomode`, or the runtime shut down), `failed` (an iteration failed, or the runtime running it
 * was killed: `interrupted`).
 */
export const AutomodeState = z.enum(['running', 'paused', 'completed', 'cancelled', 'failed']);
export type AutomodeState = z.infer<typeof AutomodeState>;

/** `getAutomodeStatus` (and the answer of pause/resume/cancel). Without any run yet: `active: false`, no `state`. */
export const AutomodeStatus = z.object({
  active: z.boolean(),
  state: AutomodeState.optional(),
  /** The iteration under way (running) or the last one that ran. */
  iteration: z.number().int().nonnegative(),
  maxIterations: z.number().int().nonnegative(),
  /** ISO time the run started. */
  startedAt: z.string().optional(),
  /** The session the iterations run in (the worktree's own session with `useWorktree`). */
  sessionId: z.string().optional(),
  goal: z.string().optional(),
  /** The git worktree folder and its branch (`useWorktree`); both stay after the run for review and merge. */
  worktree: z.string().optional(),
  branch: z.string().optional(),
  /** Why the run ended: the model's `complete_task` summary, `max_iterations`, `cancelled`, or the failure. */
  summary: z.string().optional(),
  error: z.string().optional(),
  /** The runtime that ran it stopped without ending it (killed): its worktree and branch are left as they were. */
  interrupted: z.boolean().optional(),
  /** The final change batch offered for review (`useWorktree`, once the run ended with changes). */
  batchId: z.string().optional(),
});
export type AutomodeStatus = z.infer<typeof AutomodeStatus>;

/** One tool call of an iteration with its result, as the log keeps it (output bounded). */
export const AutomodeToolCall = z.object({
  tool: z.string(),
  args: z.unknown(),
  success: z.boolean(),
  output: z.string().optional(),
  error: z.string().optional(),
});
export type AutomodeToolCall = z.infer<typeof AutomodeToolCall>;

/** One iteration in `getAutomodeLog`. */
export const AutomodeIterationLog = z.object({
  iteration: z.number().int().positive(),
  runId: z.string(),
  startedAt: z.string(),
  endedAt: z.string().optional(),
  /** The run's status (`completed`, `stopped`, `aborted`, `error`), absent while it runs. */
  status: z.string().optional(),
  /** What the model said it did (its last text, or its `complete_task` summary). */
  summary: z.string(),
  toolCalls: z.array(AutomodeToolCall),
  errors: z.array(z.string()),
});
export type AutomodeIterationLog = z.infer<typeof AutomodeIterationLog>;

export const automodeMethods = {
  /**
   * Start working toward `prompt` in iterations (spec 001 §3.3); answers at once once accepted. Refused while a run or
   * another auto-mode run is active, with `useWorktree` outside a git repository, or while a change batch is pending.
   */
  startAutomode: {
    params: z.object({
      prompt: z.string().trim().min(1, 'the goal must not be empty'),
      maxIterations: z.number().int().positive().max(MAX_AUTOMODE_ITERATIONS).optional(),
      useWorktree: z.boolean().optional(),
    }),
    result: z.object({ sessionId: z.string() }),
  },
  getAutomodeStatus: { params: z.object({}).strict(), result: AutomodeStatus },
  /** Pause at the next iteration boundary (the iteration under way finishes). */
  pauseAutomode: { params: z.object({}).strict(), result: AutomodeStatus },
  resumeAutomode: { params: z.object({}).strict(), result: AutomodeStatus },
  /** Cancel: aborts the iteration under way; the run ends `cancelled`. */
  cancelAutomode: { params: z.object({}).strict(), result: AutomodeStatus },
  /** The current (or last) run's iterations: summary, tool calls with results, errors. */
  getAutomodeLog: {
    params: z.object({}).strict(),
    result: z.object({ status: AutomodeStatus, iterations: z.array(AutomodeIterationLog) }),
  },
} as const;

const base = { sessionId: z.string() };

/** An iteration ended (whatever its outcome); `summary` is what the model said it did. */
export const AutomodeIterationEvent = z.lazy(() =>
  z.object({
    type: z.literal('automode_iteration'),
    ...base,
    iteration: z.number().int().positive(),
    maxIterations: z.number().int().positive(),
    runId: z.string(),
    status: z.string(),
    summary: z.string(),
    toolCalls: z.number().int().nonnegative(),
  }),
);
/** The auto-mode run ended: `completed` (goal met or `maxIterations`) or `cancelled`. A failure is `automode_error`. */
export const AutomodeCompleteEvent = z.lazy(() =>
  z.object({
    type: z.literal('automode_complete'),
    ...base,
    state: z.enum(['completed', 'cancelled']),
    /** `goal_met` (complete_task), `max_iterations`, `cancelled`. */
    reason: z.enum(['goal_met', 'max_iterations', 'cancelled']),
    iterations: z.number().int().nonnegative(),
    summary: z.string(),
    worktree: z.string().optional(),
    branch: z.string().optional(),
    /** The branch's diff against its base, offered for review in the user's workspace (`useWorktree`). */
    batch: ChangeBatch.optional(),
  }),
);
/** The auto-mode run failed (an iteration's error, git failing); the worktree and branch, if any, stay. */
export const AutomodeErrorEvent = z.lazy(() =>
  z.object({
    type: z.literal('automode_error'),
    ...base,
    iteration: z.number().int().nonnegative(),
    error: z.string(),
    worktree: z.string().optional(),
    branch: z.string().optional(),
  }),
);
