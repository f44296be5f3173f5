import type { MessageConnection } from 'vscode-jsonrpc/node';
import { RpcErrorCode } from '../protocol/constants';
import { EVENT_NOTIFICATION, type AgentEvent } from '../protocol/events';
import type { MethodName, ParamsOf, ResultOf } from '../protocol/methods';
import { LOOP_TYPES, type LoopType, type PermissionMode } from '../protocol/records';
import { createNdjsonConnection } from '../protocol/transport';
import { PROTOCOL_VERSION, isCompatibleProtocol } from '../protocol/version';
import {
  InvalidArgumentError,
  InvalidEventError,
  ProtocolError,
  ProtocolVersionError,
  RuntimeExitedError,
  RuntimeNotRunningError,
  RuntimeStartError,
  errorText,
} from './errors';
import { EventDispatcher, addListener, type Listener } from './event-dispatch';
import type { GenericEvent, SdkEvent } from './generic-event';
import { planLaunch } from './launch';
import { openRun, type PromptHandle, type PromptOptions, type PromptResult } from './prompt-run';
import { RpcChannel, type Tracer } from './rpc-channel';
import { RuntimeProcess, type ExitInfo } from './runtime-process';
import type { RuntimeTransport } from './runtime-transport';

/** Version of this SDK, sent as `clientInfo` in the handshake. */
export const SDK_VERSION = '0.1.0';
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Wait between the stop steps (close stdin → SIGTERM → SIGKILL). */
export const DEFAULT_STOP_GRACE_MS = 2_000;
/** The handshake also covers the runtime's boot, so it waits at least this long even with a small `timeout`. */
export const MIN_HANDSHAKE_TIMEOUT_MS = 30_000;

export type InitializeResult = ResultOf<'initialize'>;

export interface RuntimeClientOptions {
  /** Directory the agent works in (must exist). */
  cwd: string;
  /** The runtime CLI script; else `SERVICE_CLI_PATH`, else the bundled `dist/agentcli.js`. */
  cliPath?: string;
  /** Node executable; default `process.execPath`. */
  nodePath?: string;
  nodeArgs?: string[];
  /** Merged into the runtime's environment; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  /** Extra CLI flags, appended last. */
  args?: string[];
  /**
   * Per-request timeout in ms (default 300000). During a run it is the longest silence tolerated while the
   * runtime is neither running a tool nor waiting for the host (permission, directory access, step decision).
   */
  timeout?: number;
  /** Runtime debug logs (`SERVICE_DEBUG=true`) and SDK traffic tracing (to `onTrace`, else stderr). */
  debug?: boolean;
  /** Replaces the default system prompt: inline text, or a file path (read relative to `cwd`). */
  systemPrompt?: string;
  /** Appended to the default system prompt: inline text or a file path. */
  appendSystemPrompt?: string;
  model?: string;
  skills?: string[];
  permissionMode?: PermissionMode;
  maxIterations?: number;
  /** Loop strategy, forwarded as `--loop-type` (`react` by default: the runtime's config `loopType`). */
  loopType?: LoopType;
  /**
   * `false`: the runtime does not read `<cwd>/.agentcli/config.json`. For folders the user has not trusted: that file
   * can set base URLs (where keys are sent) and allow rules.
   */
  projectConfig?: boolean;
  /**
   * API key of the hosted service, given to the runtime as `SERVICE_API_KEY` in its environment (never on its
   * command line). Overrides a `SERVICE_API_KEY` in `env` or this process. Prefer a secret store over source code.
   */
  apiKey?: string;
  /** Wait between the stop steps; default 2000 ms. */
  stopGraceMs?: number;
  /**
   * Connects to a runtime instead of spawning one (the launch options above are then unused): e.g. a runtime in this
   * process over a pair of streams (the SDK's in-process tests), or one behind a socket.
   */
  transport?: () => Promise<RuntimeTransport>;
  onTrace?: (dir: 'send' | 'recv', msg: unknown) => void;
  /** Each line the runtime logs on stderr; with `debug` and no handler, lines go to this process's stderr. */
  onStderr?: (line: string) => void;
}

/**
 * The connection to one runtime (`agentcli --mode rpc`, spawned or given as a transport) and its lifecycle: the
 * handshake, events, raw requests, runs followed to their end, and stopping. `RuntimeClient` (./client) adds one typed
 * method per protocol operation.
 */
export class RuntimeConnection {
  private readonly opts: RuntimeClientOptions;
  private systemPromptValue: string | undefined;
  private readonly appendedPrompts: string[] = [];
  private proc: RuntimeTransport | undefined;
  private connection: MessageConnection | undefined;
  private rpc: RpcChannel | undefined;
  private init: InitializeResult | undefined;
  private starting: Promise<InitializeResult> | undefined;
  private stopping: Promise<void> | undefined;
  private stopRequested = false;
  private readonly dispatcher = new EventDispatcher();
  private readonly exitListeners = new Set<Listener<ExitInfo>>();
  private readonly timeoutMs: number;

  constructor(opts: RuntimeClientOptions) {
    if (opts === null || typeof opts !== 'object') throw new InvalidArgumentError('RuntimeClient needs an options object with cwd');
    const timeout = opts.timeout ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new InvalidArgumentError(`timeout must be a positive number of milliseconds, got ${String(opts.timeout)}`);
    }
    if (opts.loopType !== undefined && !(LOOP_TYPES as readonly string[]).includes(opts.loopType)) {
      throw new InvalidArgumentError(`loopType must be one of ${LOOP_TYPES.join(', ')}, got ${JSON.stringify(opts.loopType)}`);
    }
    if (opts.apiKey !== undefined && (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '')) {
      throw new InvalidArgumentError('apiKey must be a non-empty string (or omit it to use SERVICE_API_KEY from the environment)');
    }
    this.opts = { ...opts };
    this.timeoutMs = timeout;
    this.systemPromptValue = opts.systemPrompt;
    if (opts.appendSystemPrompt !== undefined) this.appendedPrompts.push(opts.appendSystemPrompt);
  }

  /** Replaces the default system prompt (text or file path). Call before `start()`. */
  setSystemPrompt(text: string): this {
    this.assertNotStarted('setSystemPrompt');
    this.systemPromptValue = text;
    return this;
  }

  /** Appends to the system prompt (text or file path); repeated calls add in order. Call before `start()`. */
  appendSystemPrompt(text: string): this {
    this.assertNotStarted('appendSystemPrompt');
    this.appendedPrompts.push(text);
    return this;
  }

  get initialized(): InitializeResult | undefined {
    return this.init;
  }

  /** Process id of the runtime subprocess once spawned. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get isRunning(): boolean {
    return this.proc !== undefined && !this.proc.hasExited && !this.stopRequested;
  }

  /** Spawns the runtime and completes the `initialize` handshake. Calling it again returns the same handshake. */
  start(): Promise<InitializeResult> {
    if (this.stopRequested) return Promise.reject(new RuntimeNotRunningError('this client was stopped; create a new one'));
    this.starting ??= this.doStart();
    return this.starting;
  }

  /** Ends the runtime: close stdin, then SIGTERM, then SIGKILL after the grace period. Safe to call repeatedly. */
  stop(): Promise<void> {
    this.stopping ??= this.doStop();
    return this.stopping;
  }

  /** Every event of a known type, validated by the protocol schema (unknown types go to `onGenericEvent`). */
  onEvent(listener: (e: AgentEvent) => void): { dispose(): void } {
    return addListener(this.dispatcher.events, listener);
  }

  /** Notifications of a type this SDK does not know (a newer runtime), in their generic form. */
  onGenericEvent(listener: (e: GenericEvent) => void): { dispose(): void } {
    return addListener(this.dispatcher.generic, listener);
  }

  onExit(listener: (info: ExitInfo) => void): { dispose(): void } {
    return addListener(this.exitListeners, listener);
  }

  /** A raw request, typed by the protocol; params are checked and the result validated. */
  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>> {
    try {
      return this.channel(method).request(method, params);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** Starts a run and follows it: the run id, its events (replayable) and its result. */
  startRun(message: string, options: PromptOptions = {}): PromptHandle {
    return openRun(this.runDeps(), { ...options, message });
  }

  /** Answers a proposed plan and follows the run it starts (accept: the plan's execution; revise: the note's run). */
  startPlanResponse(p: ParamsOf<'respondToPlan'>): PromptHandle {
    const deps = this.runDeps();
    return openRun(deps, { message: p.note ?? '' }, () => deps.rpc.request('respondToPlan', p));
  }

  private runDeps() {
    return {
      rpc: this.channel('prompt'),
      subscribe: (l: Listener<SdkEvent>) => {
        const known = addListener(this.dispatcher.events, l);
        const generic = addListener(this.dispatcher.generic, l);
        return () => (known.dispose(), generic.dispose());
      },
      subscribeInvalid: (l: Listener<InvalidEventError>) => addListener(this.dispatcher.invalid, l).dispose,
      idleTimeoutMs: this.timeoutMs,
    };
  }

  /** One prompt; resolves with the run's result at its `agent_end`. */
  prompt(message: string, options?: PromptOptions): Promise<PromptResult> {
    try {
      return this.startRun(message, options).result;
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** One prompt as a stream of its events, ending after `agent_end` (or throwing the run's error). */
  streamPrompt(p: { message: string } & PromptOptions): AsyncIterable<SdkEvent> {
    const { message, ...options } = p;
    let handle: PromptHandle;
    try {
      handle = this.startRun(message, options);
    } catch (e) {
      return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(e) }) };
    }
    return { [Symbol.asyncIterator]: () => handle.events.iterate() };
  }

  private assertNotStarted(what: string): void {
    if (this.starting) throw new InvalidArgumentError(`${what}() must be called before start()`);
  }

  private channel(method: string): RpcChannel {
    if (this.stopRequested && this.proc?.hasExited !== false) {
      throw new RuntimeNotRunningError(`cannot call "${method}": the runtime was stopped (stop() or close() was called)`);
    }
    if (this.rpc?.failed) throw this.rpc.failed;
    if (!this.rpc || (!this.init && method !== 'initialize')) {
      throw new RuntimeNotRunningError(`cannot call "${method}": the runtime is not started (await start() first)`);
    }
    return this.rpc;
  }

  private tracer(): Tracer | undefined {
    if (this.opts.onTrace) return this.opts.onTrace;
    if (!this.opts.debug) return undefined;
    return (dir, msg) => process.stderr.write(`[agentcli-sdk] ${dir} ${JSON.stringify(msg)}\n`);
  }

  private async doStart(): Promise<InitializeResult> {
    const plan = planLaunch({
      ...this.opts,
      systemPrompt: this.systemPromptValue,
      appendSystemPrompt: this.appendedPrompts,
    });
    const onStderr =
      this.opts.onStderr ?? (this.opts.debug ? (line: string) => process.stderr.write(`[agentcli] ${line}\n`) : () => {});
    const proc: RuntimeTransport = this.opts.transport ? await this.opts.transport() : processTransport(await RuntimeProcess.spawn(plan, onStderr));
    this.proc = proc;
    const trace = this.tracer();
    const connection = createNdjsonConnection(proc.stdout, proc.stdin, {
      onViolation: (v) => trace?.('recv', { violation: v }),
    });
    this.connection = connection;
    const exitError = (info: ExitInfo) =>
      new RuntimeExitedError(info.code, info.signal, info.stderrTail, this.stopRequested ? 'the runtime was stopped' : 'the runtime exited unexpectedly');
    const rpc = new RpcChannel(connection, this.timeoutMs, trace, async () => exitError(await proc.whenExited()));
    this.rpc = rpc;
    connection.onNotification(EVENT_NOTIFICATION, (params: unknown) => this.dispatcher.dispatch(params, trace));
    connection.onUnhandledNotification((n) => this.dispatcher.dispatchUnknownNotification(n.method, n.params, trace));
    connection.onError(() => {});
    connection.listen();
    void proc.whenExited().then((info) => {
      rpc.failAll(exitError(info));
      connection.dispose();
      for (const l of [...this.exitListeners]) l(info);
    });
    try {
      return await this.handshake(rpc);
    } catch (e) {
      await proc.stop(0);
      if (e instanceof RuntimeExitedError) {
        throw new RuntimeStartError(`the runtime exited during the handshake: ${e.message}`, { cause: e });
      }
      throw e;
    }
  }

  private async handshake(rpc: RpcChannel): Promise<InitializeResult> {
    let result: InitializeResult;
    try {
      result = await rpc.request(
        'initialize',
        { protocolVersion: PROTOCOL_VERSION, clientInfo: { name: 'agentcli-sdk', version: SDK_VERSION } },
        Math.max(this.timeoutMs, MIN_HANDSHAKE_TIMEOUT_MS),
      );
    } catch (e) {
      if (e instanceof ProtocolError && e.code === RpcErrorCode.ProtocolVersionMismatch) {
        const data = e.data as { runtimeVersion?: unknown; protocolVersion?: unknown } | undefined;
        const theirs = typeof data?.protocolVersion === 'string' ? data.protocolVersion : undefined;
        throw new ProtocolVersionError(
          `the runtime refused protocol ${PROTOCOL_VERSION}: ${errorText(e)}; use an SDK and runtime from the same release`,
          PROTOCOL_VERSION,
          theirs,
          e.data,
        );
      }
      throw e;
    }
    if (!isCompatibleProtocol(result.protocolVersion)) {
      throw new ProtocolVersionError(
        `the runtime speaks protocol ${result.protocolVersion}, this SDK speaks ${PROTOCOL_VERSION}; use an SDK and runtime from the same release`,
        PROTOCOL_VERSION,
        result.protocolVersion,
      );
    }
    this.init = result;
    return result;
  }

  private async doStop(): Promise<void> {
    this.stopRequested = true;
    if (this.starting) await this.starting.catch(() => {});
    const proc = this.proc;
    if (!proc) return;
    await proc.stop(this.opts.stopGraceMs ?? DEFAULT_STOP_GRACE_MS);
    // Let the exit handler fail pending calls and notify listeners before stop() resolves.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The spawned runtime process as a transport. */
function processTransport(proc: RuntimeProcess): RuntimeTransport {
  return {
    stdout: proc.child.stdout,
    stdin: proc.child.stdin,
    pid: proc.child.pid,
    get hasExited() {
      return proc.hasExited;
    },
    whenExited: () => proc.whenExited(),
    stop: (graceMs) => proc.stop(graceMs),
  };
}
