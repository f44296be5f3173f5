import type { EventOf } from '../protocol/events';
import type { AgentStep } from '../protocol/records';
import type { PromptHandle, PromptOptions, PromptResult, RuntimeClient } from './client';
import { settleBatch, type ChangeBatchCallback, type ReadyChangeBatch, type RunChange } from './change-batch';
import { SdkError, StopConditionError, errorText } from './errors';
import { EventChannel } from './event-channel';
import type { SdkEvent } from './generic-event';
import { shouldStop, snapshotStep, type StopCondition } from './step-control';
import { StepCollector } from './steps';

export interface RunOptions extends Omit<PromptOptions, 'stepControl'> {
  /** Stop after a completed tool step when this condition (or any in the list) is true. */
  stopWhen?: StopCondition | readonly StopCondition[];
  /** Decides this run's change batch; overrides the agent's `onChangeBatch`. */
  onChangeBatch?: ChangeBatchCallback;
}

export interface RunResult {
  /** The runtime's run id (empty for a run aborted before it started). */
  id: string;
  status: 'completed' | 'aborted' | 'stopped';
  /** Why a stopped run stopped, e.g. `stop_condition` or `max_iterations`. */
  stoppedReason?: string;
  /** The final assistant text. */
  text: string;
  /** Every event of the run; types this SDK does not know arrive in their generic form (`type: 'generic'`). */
  events: SdkEvent[];
  steps: AgentStep[];
  /**
   * Every file change the run proposed, with its outcome (`applied`, `rejected`, `stale`, `failed`, or `undecided`
   * while its batch waits for `agent.decideChanges`). Empty when the run proposed none.
   */
  changes: RunChange[];
}

/**
 * The run ended with status `error` (provider failure, bad configuration...); `result` holds what was received and
 * `remedy` what the runtime suggests doing about it (also at the end of the message).
 */
export class RunFailedError extends SdkError {
  readonly remedy: string | undefined;
  constructor(
    readonly code: string,
    message: string,
    readonly result: Omit<RunResult, 'status'> & { status: 'error' },
  ) {
    let hint: string | undefined;
    for (const e of result.events) if (e.type === 'error' && e.remedy !== undefined) hint = e.remedy;
    super(`the run failed (${code}): ${message}${hint ? `. Remedy: ${hint}` : ''}`);
    this.remedy = hint;
  }
}

type RunState = 'queued' | 'running' | 'done';

/**
 * One prompt given to an Agent. Created by `agent.send` (it may wait in the agent's queue); `stream()`
 * yields every event from the start, `wait()` resolves with the result, `abort()` cancels it.
 */
export class Run {
  private state: RunState = 'queued';
  private runId = '';
  private readonly channel = new EventChannel<SdkEvent>();
  private readonly collector = new StepCollector();
  private readonly settled: Promise<RunResult>;
  private resolveSettled!: (r: RunResult) => void;
  private rejectSettled!: (e: unknown) => void;
  private abortRequested = false;
  /** An error raised by host code during the run (stop condition, permission callback), surfaced at the end. */
  private hostError: Error | undefined;
  /** Step decisions run one after another, in step order. */
  private decisions: Promise<void> = Promise.resolve();
  /** Set when the run's events ended; a predicate that answers later sends nothing. */
  private eventsEnded = false;
  /** Frozen copies of the completed steps for the stop conditions, each made once (not per decision). */
  private readonly snapshots: AgentStep[] = [];
  /** The change batch the run left (`change_batch_ready`), decided when the run ends. */
  private batch: ReadyChangeBatch | undefined;

  /** @internal Created by Agent. */
  constructor(
    readonly prompt: string,
    private readonly client: RuntimeClient,
    private readonly options: Omit<RunOptions, 'stopWhen' | 'onChangeBatch'>,
    private readonly conditions: readonly StopCondition[],
    private readonly onChangeBatch?: ChangeBatchCallback,
    /** How the run starts: a prompt by default; an answer to a proposed plan (`agent.respondToPlan`) starts one too. */
    private readonly start: (client: RuntimeClient) => PromptHandle = (client) =>
      client.startRun(prompt, { ...options, stepControl: conditions.length > 0 }),
  ) {
    this.settled = new Promise((resolve, reject) => ((this.resolveSettled = resolve), (this.rejectSettled = reject)));
    this.settled.catch(() => {});
  }

  /** The runtime's run id once the run started; empty while queued. */
  get id(): string {
    return this.runId;
  }

  get status(): RunState {
    return this.state;
  }

  /** Steps completed so far. */
  get steps(): readonly AgentStep[] {
    return this.collector.steps;
  }

  /** Every event of the run, replayed from its start, then live; ends after `agent_end` or throws the run's error. */
  stream(): AsyncIterable<SdkEvent> {
    return { [Symbol.asyncIterator]: () => this.channel.iterate() };
  }

  /** The result once the run ended. Rejects with the run's error (e.g. `StopConditionError`, `RuntimeExitedError`). */
  wait(): Promise<RunResult> {
    return this.settled;
  }

  /** Cancels the run: a queued run ends at once; a running one ends when the runtime closes the turn. */
  async abort(): Promise<void> {
    if (this.state === 'done' || this.abortRequested) return;
    this.abortRequested = true;
    if (this.state === 'queued') {
      this.finish({ id: '', status: 'aborted', text: '', events: [], steps: [], changes: [] });
      return;
    }
    await this.client.abort();
  }

  /** @internal Records host-code failure to report when the run ends. */
  noteHostError(error: Error): void {
    this.hostError ??= error;
  }

  /** @internal Called by Agent when the run's turn in the queue comes; settles when the run ends. */
  async execute(): Promise<void> {
    if (this.state !== 'queued') return;
    this.state = 'running';
    let handle: PromptHandle;
    try {
      handle = this.start(this.client);
      handle.runId.then((id) => (this.runId = id)).catch(() => {});
      for await (const e of handle.events.iterate()) this.take(e);
      this.eventsEnded = true;
      const result = await handle.result;
      // The batch is decided before the run settles, so the agent's next prompt never meets it pending by surprise.
      const settled = this.batch ? await settleBatch(this.client, this.batch, this.onChangeBatch, result.status === 'aborted') : { changes: [] };
      if (settled.error) this.noteHostError(settled.error);
      this.complete(result, settled.changes);
    } catch (e) {
      this.eventsEnded = true;
      this.fail(e);
    }
  }

  /** @internal Ends a queued run that can never start (the agent closed). */
  cancelQueued(error: Error): void {
    if (this.state === 'queued') this.fail(error);
  }

  private take(e: SdkEvent): void {
    this.runId ||= 'runId' in e && e.runId ? e.runId : '';
    if (e.type === 'change_batch_ready') this.batch = e.batch;
    this.collector.add(e);
    this.channel.push(e);
    if (e.type === 'step_end' && e.awaitingDecision) {
      for (let i = this.snapshots.length; i < this.collector.steps.length; i++) this.snapshots.push(snapshotStep(this.collector.steps[i]!));
      const steps = this.snapshots.slice();
      this.decisions = this.decisions.then(() => this.decide(e, steps));
    }
  }

  /** Evaluates the stop conditions for a step and answers the runtime, unless the run was aborted meanwhile. */
  private async decide(e: EventOf<'step_end'>, steps: AgentStep[]): Promise<void> {
    let stop: boolean;
    let reason: string | undefined;
    try {
      // A plain stop sends no reason, so the run's stoppedReason is the runtime's `stop_condition`.
      stop = await shouldStop(this.conditions, steps);
    } catch (err) {
      if (this.abortRequested || this.eventsEnded) return;
      this.noteHostError(new StopConditionError(e.step.stepNumber, err));
      stop = true;
      reason = `stop condition threw: ${errorText(err)}`;
    }
    if (this.abortRequested || this.eventsEnded) return;
    const params = { runId: e.runId, stepNumber: e.step.stepNumber, decision: stop ? ('stop' as const) : ('continue' as const) };
    try {
      await this.client.respondToStep(reason === undefined ? params : { ...params, reason });
    } catch (err) {
      if (this.abortRequested || this.eventsEnded) return;
      // Without an answer the runtime would wait forever: report the failure and end the run.
      this.noteHostError(err instanceof Error ? err : new SdkError(errorText(err)));
      await this.client.abort().catch(() => {});
    }
  }

  private complete(r: PromptResult, changes: RunChange[]): void {
    const base = { id: r.runId, text: r.text, events: r.events, steps: [...this.collector.steps], changes };
    const withReason = r.stoppedReason === undefined ? base : { ...base, stoppedReason: r.stoppedReason };
    if (this.hostError) {
      this.fail(this.hostError);
      return;
    }
    if (r.status === 'error') {
      const code = r.error?.code ?? 'internal';
      this.fail(new RunFailedError(code, r.error?.message ?? 'no details given', { ...withReason, status: 'error' }));
      return;
    }
    this.finish({ ...withReason, status: r.status });
  }

  private finish(result: RunResult): void {
    if (this.state === 'done' && this.channel.ended) return;
    this.state = 'done';
    this.channel.end();
    this.resolveSettled(result);
  }

  private fail(error: unknown): void {
    if (this.state === 'done' && this.channel.ended) return;
    this.state = 'done';
    this.channel.end(error);
    this.rejectSettled(error);
  }
}
