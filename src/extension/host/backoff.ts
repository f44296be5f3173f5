/**
 * Restart policy after an unexpected runtime exit: exponential backoff, a cap on automatic attempts, and a reset
 * once the runtime has stayed up long enough. Pure: no `vscode` import, no timers.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** Automatic attempts in a row before waiting for the user's click. */
  maxAttempts: number;
  /** A runtime that ran this long before exiting starts a fresh series. */
  stableAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 30000, maxAttempts: 5, stableAfterMs: 60000 };

/** Delay before automatic attempt `attempt` (1-based): base, 2×base, 4×base, … capped at maxMs. */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
}

export class RestartSchedule {
  private attempts = 0;

  constructor(private readonly policy: BackoffPolicy = DEFAULT_BACKOFF) {}

  /**
   * Called on an unexpected exit with how long the runtime had been up. Returns the next attempt and its delay,
   * or undefined when automatic restarts are used up (the user restarts by hand).
   */
  next(uptimeMs: number): { attempt: number; delayMs: number } | undefined {
    if (uptimeMs >= this.policy.stableAfterMs) this.attempts = 0;
    if (this.attempts >= this.policy.maxAttempts) return undefined;
    this.attempts += 1;
    return { attempt: this.attempts, delayMs: backoffDelay(this.attempts, this.policy) };
  }

  /** A restart the user asked for starts a fresh series. */
  reset(): void {
    this.attempts = 0;
  }
}
