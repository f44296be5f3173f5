import type { EventOf } from '../protocol/events';
import type { ParamsOf } from '../protocol/methods';
import type { RunStatus } from '../protocol/records';
import { RequestTimeoutError, type InvalidEventError } from './errors';
import { EventChannel } from './event-channel';
import type { SdkEvent } from './generic-event';
import type { RpcChannel } from './rpc-channel';

export type PromptOptions = Omit<ParamsOf<'prompt'>, 'message'>;

/** The outcome of one `prompt`, taken from its `agent_end` event. */
export interface PromptResult {
  runId: string;
  status: RunStatus;
  stoppedReason?: string;
  text: string;
  error?: { code: string; message: string };
  /** Every event of the run, in arrival order (unknown types in their generic form), ending with `agent_end`. */
  events: SdkEvent[];
}

/** One run in flight: its id once accepted, its events (replayable), and its result. */
export interface PromptHandle {
  readonly runId: Promise<string>;
  readonly events: EventChannel<SdkEvent>;
  readonly result: Promise<PromptResult>;
}

/** Events after which the runtime waits for the host, so silence is expected and the idle timer pauses. */
function waitsForHost(e: SdkEvent): boolean {
  switch (e.type) {
    case 'permission_request':
    case 'directory_access_request':
    case 'mcp_invocation':
      return true;
    case 'step_end':
      return e.awaitingDecision;
    default:
      return false;
  }
}

export interface OpenRunDeps {
  rpc: RpcChannel;
  /** Every event, known types validated and unknown ones in their generic form. */
  subscribe(listener: (e: SdkEvent) => void): () => void;
  /** Events that broke the protocol schema; one for this run (or naming no run) fails it. */
  subscribeInvalid(listener: (e: InvalidEventError) => void): () => void;
  /** Inactivity limit of the run: no event for this long (while not waiting on the host) fails it. */
  idleTimeoutMs: number;
}

/**
 * Sends `prompt` and follows the run: events carrying its run id (and run-less events while it is active)
 * go to the channel until `agent_end`. Events that arrive before the `{ runId }` answer are held and
 * sorted once the id is known. A silent run (no event within the idle timeout, while neither waiting on
 * the host nor running a tool) fails with `RequestTimeoutError` and is aborted in the runtime; so does an event of
 * the run that breaks the protocol schema (`InvalidEventError`); a dying runtime fails it at once.
 */
export function openRun(
  deps: OpenRunDeps,
  params: ParamsOf<'prompt'>,
  /** How the run starts (default: `prompt` with `params`; `respondToPlan` starts one too). */
  send: () => Promise<{ runId: string }> = () => deps.rpc.request('prompt', params),
): PromptHandle {
  const events = new EventChannel<SdkEvent>();
  let runId: string | undefined;
  /** Arrivals before the `{ runId }` answer, replayed in order once the id is known. */
  const early: Array<() => void> = [];
  let idleTimer: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  let unsubscribeInvalid = () => {};
  let release = () => {};
  let resolveId!: (id: string) => void;
  let rejectId!: (e: unknown) => void;
  let resolveResult!: (r: PromptResult) => void;
  let rejectResult!: (e: unknown) => void;
  const runIdPromise = new Promise<string>((res, rej) => ((resolveId = res), (rejectId = rej)));
  const result = new Promise<PromptResult>((res, rej) => ((resolveResult = res), (rejectResult = rej)));
  // Callers may only look at one of these; never let the other become an unhandled rejection.
  runIdPromise.catch(() => {});
  result.catch(() => {});

  const cleanup = () => {
    if (idleTimer) clearTimeout(idleTimer);
    unsubscribe();
    unsubscribeInvalid();
    release();
  };
  const fail = (e: unknown) => {
    if (events.ended) return;
    cleanup();
    events.end(e);
    rejectId(e);
    rejectResult(e);
  };
  const armIdle = (paused: boolean) => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (paused || events.ended) return;
    idleTimer = setTimeout(() => failAndAbort(new RequestTimeoutError('prompt', deps.idleTimeoutMs)), deps.idleTimeoutMs);
  };
  // The runtime may still be running the turn: abort it (first, so no later prompt can be hit by it).
  const failAndAbort = (e: Error) => {
    deps.rpc.request('abort', {}).catch(() => {});
    fail(e);
  };
  const rejectInvalid = (e: InvalidEventError) => {
    if (events.ended || (e.runId !== undefined && e.runId !== runId)) return;
    failAndAbort(e);
  };
  // Tools bound their own run time (a command may legitimately be silent for minutes): no idle limit meanwhile.
  const openTools = new Set<string>();
  const accept = (e: SdkEvent) => {
    if (events.ended) return;
    const eventRun = 'runId' in e ? e.runId : undefined;
    if (eventRun !== undefined && eventRun !== runId) return;
    if (e.type === 'tool_start') openTools.add(e.toolCallId);
    else if (e.type === 'tool_end') openTools.delete(e.toolCallId);
    events.push(e);
    if (e.type === 'agent_end') {
      cleanup();
      events.end();
      resolveResult(resultOf(e, events.buffered));
      return;
    }
    armIdle(waitsForHost(e) || openTools.size > 0);
  };

  unsubscribe = deps.subscribe((e) => (runId === undefined ? early.push(() => accept(e)) : accept(e)));
  unsubscribeInvalid = deps.subscribeInvalid((e) => (runId === undefined ? early.push(() => rejectInvalid(e)) : rejectInvalid(e)));
  release = deps.rpc.hold({ fail });
  send().then(
    (r) => {
      runId = r.runId;
      resolveId(r.runId);
      armIdle(false);
      for (const replay of early.splice(0)) replay();
    },
    (e: unknown) => fail(e),
  );
  return { runId: runIdPromise, events, result };
}

function resultOf(end: EventOf<'agent_end'>, events: readonly SdkEvent[]): PromptResult {
  const r: PromptResult = { runId: end.runId, status: end.status, text: end.text, events: [...events] };
  if (end.stoppedReason !== undefined) r.stoppedReason = end.stoppedReason;
  if (end.error !== undefined) r.error = end.error;
  return r;
}
