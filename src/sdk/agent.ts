import type { EventOf } from '../protocol/events';
import type { PermissionMode, PermissionScope } from '../protocol/records';
import { RuntimeClient, type InitializeResult, type RuntimeClientOptions } from './client';
import { AgentOperations } from './agent-operations';
import type { ChangeBatchCallback } from './change-batch';
import { answerDirectoryAccess, type DirectoryAccessCallback } from './directory-access';
import type { ParamsOf } from '../protocol/methods';
import { RpcErrorCode } from '../protocol/constants';
import { SessionAttachError } from './saved-sessions';
import {
  InvalidArgumentError,
  PermissionCallbackError,
  ProtocolError,
  SdkError,
  RuntimeNotRunningError,
  StructuredOutputError,
  errorText,
} from './errors';
import { promptArgs } from './launch';
import { Run, type RunOptions, type RunResult } from './run';
import { normalizeStopWhen } from './step-control';
import {
  jsonPrompt,
  parseStructured,
  prepareSchema,
  repairPrompt,
  structuredOutputFailure,
  type StructuredOutputOptions,
} from './structured-output';

export type PermissionRequest = EventOf<'permission_request'>;

/** How long close() lets a run in progress end as aborted before stopping the runtime anyway. */
const CLOSE_ABORT_WAIT_MS = 2000;

/**
 * What `onPermissionRequest` answers: allow or deny (optionally with a scope), deny with an alternative for
 * the model, or `undefined` to leave the request open and answer later with `allowPermission`/`denyPermission`.
 */
export type PermissionDecision =
  | 'allow'
  | 'deny'
  | { allow: true; scope?: PermissionScope }
  | { allow: false; scope?: PermissionScope; alternative?: string }
  | undefined;

export interface AgentOptions
  extends Omit<RuntimeClientOptions, 'onTrace' | 'onStderr' | 'systemPrompt' | 'appendSystemPrompt' | 'model'> {
  /** Model override; else `SERVICE_MODEL` (from `env`, then this process), else the runtime's configuration. */
  model?: string;
  /** Short persona; appended (after `appendSystemPrompt`) to the system prompt. */
  instructions?: string;
  /** Replaces the default system prompt: inline text, or a path to a file (relative to `cwd`). */
  systemPrompt?: string;
  /** Appended to the default system prompt: inline text or a file path. */
  appendSystemPrompt?: string;
  permissionMode?: PermissionMode;
  /** Answers permission requests inline; throwing denies the request and fails the run. */
  onPermissionRequest?: (request: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>;
  /**
   * Answers requests to reach a directory outside the workspace (`directory_access_request`); throwing denies
   * the request and fails the run; `undefined` leaves it to `allowDirectory`/`denyDirectory`. Without this
   * callback the agent answers by itself so no run hangs: allowed once when the runtime's permission mode is
   * `unrestricted`, else denied (the model is told to stay inside the workspace; a note goes to `onTrace`/debug).
   */
  onDirectoryAccess?: DirectoryAccessCallback;
  /**
   * Decides the change batch a run leaves (its file edits, held until decided): `'accept_all'`, `'reject_all'`,
   * `{ decision: 'accept_selected', changeIds }`, or `undefined` to decide later with `decideChanges`. Throwing (or an
   * invalid answer) rejects the batch and the run rejects with `ChangeBatchCallbackError`. Without it, a run's batch is
   * applied when the runtime's permission mode is `unrestricted` (as the CLI's `--yolo`), else left undecided.
   * `RunResult.changes` tells what became of each change. A run's own `onChangeBatch` option overrides this one.
   */
  onChangeBatch?: ChangeBatchCallback;
  /**
   * Continue this saved session (see `getHistory`): its history goes with the next prompt. `Agent.create` rejects with
   * `SessionAttachError` (reason `not_found`, `busy`, `corrupt` or `other_workspace`) when it cannot.
   */
  sessionId?: string;
  /**
   * Answers plans proposed in plan mode (`setPlanMode(true)`): `'accept'` executes the plan, `{ revise: note }` asks for
   * another one, `undefined` leaves it to `respondToPlan`. The run an answer starts is queued after the proposing run;
   * `takePlanRuns()` hands those runs over. Throwing leaves the plan unanswered and fails the proposing run.
   */
  onPlan?: (plan: PlanProposal) => PlanDecision | Promise<PlanDecision>;
  onTrace?: RuntimeClientOptions['onTrace'];
  onStderr?: RuntimeClientOptions['onStderr'];
}

/** A plan the model proposed in plan mode (`plan_proposed`): its id, steps and text. */
export type PlanProposal = EventOf<'plan_proposed'>;
/** What `onPlan` answers: accept, revise with a note, or `undefined` to answer later with `respondToPlan`. */
export type PlanDecision = 'accept' | { revise: string } | undefined;

export type RunJsonOptions<T> = StructuredOutputOptions<T> & Omit<RunOptions, 'responseFormat' | 'stopWhen'>;

/**
 * A coding agent backed by one runtime subprocess. Prompts run one at a time, in the order they were sent;
 * the conversation (including tool results) carries over from run to run. The runtime-control operations
 * (permission answers, modes, sessions, auto-mode...) come from `AgentOperations`.
 */
export class Agent extends AgentOperations {
  private readonly queue: Run[] = [];
  /** The runs `onPlan` answers started, oldest first (see `planRuns`). */
  private readonly planRuns: Run[] = [];
  private active: Run | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    client: RuntimeClient,
    private readonly options: AgentOptions,
  ) {
    super(client);
    const directoryHost = {
      client,
      callback: options.onDirectoryAccess,
      noteRunError: (runId: string, error: Error) => {
        const run = this.runFor(runId);
        if (run && run.status !== 'done') run.noteHostError(error);
      },
      note: (message: string) => {
        if (options.onTrace) options.onTrace('recv', { note: message });
        else if (options.debug) process.stderr.write(`[agentcli-sdk] ${message}\n`);
      },
    };
    client.onEvent((e) => {
      if (e.type === 'permission_request' && options.onPermissionRequest) void this.answerPermission(e);
      else if (e.type === 'directory_access_request') void answerDirectoryAccess(directoryHost, e);
      else if (e.type === 'plan_proposed' && options.onPlan) void this.answerPlan(e);
    });
  }

  /** Starts the runtime and completes the handshake. Throws typed errors (start, version, invalid options). */
  static async create(options: AgentOptions): Promise<Agent> {
    if (options === null || typeof options !== 'object') throw new InvalidArgumentError('Agent.create needs options with cwd');
    for (const name of ['onPermissionRequest', 'onDirectoryAccess', 'onChangeBatch', 'onPlan'] as const) {
      if (options[name] !== undefined && typeof options[name] !== 'function') throw new InvalidArgumentError(`${name} must be a function`);
    }
    // A SERVICE_MODEL key in `env` wins over this process's variable, even when undefined (removed).
    const envModel = options.env && 'SERVICE_MODEL' in options.env ? options.env.SERVICE_MODEL : process.env.SERVICE_MODEL;
    const model = options.model ?? envModel;
    const { instructions, appendSystemPrompt, onPermissionRequest: _p, onDirectoryAccess: _d, onChangeBatch: _b, onPlan: _pl, sessionId, ...rest } = options;
    const client = new RuntimeClient({ ...rest, ...(model ? { model } : {}) });
    if (appendSystemPrompt !== undefined) client.appendSystemPrompt(appendSystemPrompt);
    if (instructions !== undefined && instructions.trim() !== '') {
      promptArgs(instructions, options.cwd, 'instructions', '', ''); // checked here, so an error names this option
      client.appendSystemPrompt(instructions);
    }
    if (sessionId !== undefined && (typeof sessionId !== 'string' || sessionId.trim() === '')) {
      throw new InvalidArgumentError('sessionId must be a saved session id (see getHistory)');
    }
    const agent = new Agent(client, options);
    await client.start();
    if (sessionId !== undefined) {
      const attached = await client.attachSession({ sessionId }).catch(async (e: unknown) => {
        await agent.close();
        throw e;
      });
      if (!attached.attached) {
        await agent.close();
        throw new SessionAttachError(sessionId, attached.reason, attached.message);
      }
    }
    return agent;
  }

  /** The runtime's handshake answer (session id, provider, model, capabilities). */
  get info(): InitializeResult {
    return this.client.initialized as InitializeResult;
  }

  /** Queues a prompt and returns its Run at once; runs start in order, each after the previous one ended. */
  send(prompt: string, options: RunOptions = {}): Run {
    if (this.closing) throw new RuntimeNotRunningError('the agent is closed; create a new one');
    if (typeof prompt !== 'string' || prompt.trim() === '') throw new InvalidArgumentError('prompt must be a non-empty string');
    const { stopWhen, onChangeBatch, ...promptOptions } = options;
    const conditions = normalizeStopWhen(stopWhen);
    if (onChangeBatch !== undefined && typeof onChangeBatch !== 'function') throw new InvalidArgumentError('onChangeBatch must be a function');
    const run = new Run(prompt, this.client, promptOptions, conditions, onChangeBatch ?? this.options.onChangeBatch);
    this.queue.push(run);
    this.pump();
    return run;
  }

  /** Sends a prompt and waits for its result. */
  run(prompt: string, options: RunOptions = {}): Promise<RunResult> {
    try {
      return this.send(prompt, options).wait();
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Asks for a JSON answer matching `schema` and returns the parsed, validated value. The answer is taken
   * from the whole final text, else a fenced block, else the first balanced JSON value. Invalid answers throw
   * `StructuredOutputError` (with the raw text and the issues), after one repair round trip when `repair` is set.
   */
  async runJson<T>(prompt: string, options: RunJsonOptions<T>): Promise<T> {
    const prepared = prepareSchema(options);
    const { schemaName: _n, schema: _s, validate: _v, repair, ...runOptions } = options;
    const ask = async (message: string) => {
      const result = await this.run(message, { ...runOptions, responseFormat: prepared.responseFormat });
      if (result.status !== 'completed') {
        throw new StructuredOutputError(`the run ended with status "${result.status}" before a final answer`, result.text, []);
      }
      return result.text;
    };
    const text = await ask(jsonPrompt(prompt, prepared));
    const first = parseStructured(text, prepared);
    if (first.ok) return first.value;
    if (!repair) throw structuredOutputFailure(text, first);
    const repaired = await ask(repairPrompt(first.issues));
    const second = parseStructured(repaired, prepared);
    if (second.ok) return second.value;
    throw structuredOutputFailure(repaired, second);
  }

  /**
   * Answers a `plan_proposed` event (plan mode, see `onPlan`): `accept` leaves plan mode and executes the plan step by
   * step (`plan_update` events), `revise` sends `note` and stays in plan mode. The run this starts is queued like a
   * prompt (after the run that proposed the plan) and returned.
   */
  respondToPlan(params: ParamsOf<'respondToPlan'>): Run {
    if (this.closing) throw new RuntimeNotRunningError('the agent is closed; create a new one');
    if (params?.decision === 'revise' && (typeof params.note !== 'string' || params.note.trim() === '')) {
      throw new InvalidArgumentError('revise needs a note saying what to change');
    }
    const label = params.decision === 'accept' ? `accept plan ${params.planId}` : (params.note ?? '');
    const run = new Run(label, this.client, {}, [], this.options.onChangeBatch, (client) => client.startPlanResponse(params));
    this.queue.push(run);
    this.pump();
    this.planRuns.push(run);
    return run;
  }

  /** Ends the runtime (close stdin, SIGTERM, SIGKILL); queued runs fail, the active one fails as the runtime exits. Safe to call twice. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = new RuntimeNotRunningError('the agent was closed before this run started');
      for (const run of this.queue.splice(0)) run.cancelQueued(closed);
      // A run in progress ends as `aborted` (with its agent_end) rather than by the process going away, unless the
      // runtime does not answer within a moment.
      const active = this.active;
      if (active && this.client.isRunning) {
        const ended = active.wait().then(
          () => undefined,
          () => undefined,
        );
        await Promise.race([active.abort().then(() => ended), new Promise<void>((r) => setTimeout(r, CLOSE_ABORT_WAIT_MS).unref())]).catch(() => undefined);
      }
      await this.client.stop();
    })();
    return this.closing;
  }

  private pump(): void {
    if (this.active || this.closing) return;
    const next = this.queue.shift();
    if (!next) return;
    if (next.status !== 'queued') {
      this.pump();
      return;
    }
    this.active = next;
    void next.execute().finally(() => {
      this.active = undefined;
      this.pump();
    });
  }

  private runFor(runId: string): Run | undefined {
    // The active run learns its id asynchronously; until then a request can only be for it.
    const active = this.active;
    return active && (active.id === runId || active.id === '') ? active : undefined;
  }

  /** The runs started by `onPlan` answers since the last call, oldest first (each also settles on its own). */
  takePlanRuns(): Run[] {
    return this.planRuns.splice(0);
  }

  private async answerPlan(plan: PlanProposal): Promise<void> {
    let decision: PlanDecision;
    try {
      decision = await this.options.onPlan!(plan);
    } catch (e) {
      this.runFor(plan.runId)?.noteHostError(new SdkError(`onPlan failed for plan ${plan.planId}: ${errorText(e)}`));
      return;
    }
    if (decision === undefined) return;
    try {
      this.respondToPlan(decision === 'accept' ? { planId: plan.planId, decision: 'accept' } : { planId: plan.planId, decision: 'revise', note: decision.revise });
    } catch (e) {
      this.runFor(plan.runId)?.noteHostError(e instanceof Error ? e : new SdkError(errorText(e)));
    }
  }

  private async answerPermission(request: PermissionRequest): Promise<void> {
    const callback = this.options.onPermissionRequest;
    if (!callback) return;
    let decision: PermissionDecision;
    try {
      decision = await callback(request);
    } catch (e) {
      this.runFor(request.runId)?.noteHostError(new PermissionCallbackError(request.requestId, e));
      await this.denyPermission(request.requestId).catch(() => {});
      return;
    }
    try {
      if (decision === undefined) return;
      if (decision === 'allow') await this.allowPermission(request.requestId);
      else if (decision === 'deny') await this.denyPermission(request.requestId);
      else if (decision.allow) await this.allowPermission(request.requestId, decision.scope);
      else if (decision.alternative !== undefined) await this.suggestPermissionAlternative(request.requestId, decision.alternative);
      else await this.denyPermission(request.requestId, decision.scope);
    } catch (e) {
      // A request cancelled by an abort meanwhile is already settled; anything else is reported on the run.
      if (e instanceof ProtocolError && e.code === RpcErrorCode.UnknownId) return;
      const run = this.runFor(request.runId);
      if (run && run.status !== 'done') {
        run.noteHostError(new PermissionCallbackError(request.requestId, new Error(`answer failed: ${errorText(e)}`)));
      }
    }
  }
}
