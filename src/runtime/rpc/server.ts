import { ResponseError } from 'vscode-jsonrpc/node';
import { EVENT_NOTIFICATION, methodNames, methods, RpcErrorCode, type AgentEvent, type Capabilities, type MethodName } from '../../protocol';
import { createNdjsonConnection, MAX_PARAMS_DEPTH } from '../../protocol/transport';
import { rpcErrorData, RuntimeRequestError } from '../agent/errors';
import { ConfigError } from '../config/errors';
import { ProviderError } from '../providers/types';
import type { Session } from '../agent/session';
import { createHandlers } from './handlers';
import { formatZodIssues } from './format-issues';
import { paramsDepthError } from '../value-depth';
import { eventCheckFromEnv } from './event-check';

export interface RpcServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Builds the session once the event sink exists. */
  createSession: (emit: (e: AgentEvent) => void) => Session;
  capabilities: Capabilities;
  log: (line: string) => void;
  maxMessageBytes?: number;
}

/** How long shutdown waits for an aborted run to end, and for the last events to reach stdout. */
const SHUTDOWN_RUN_WAIT_MS = 2000;
const SHUTDOWN_FLUSH_WAIT_MS = 1000;
/** How long the session_end and post-prompt hooks may still run when the host closes the connection. */
const SHUTDOWN_HOOKS_WAIT_MS = 5000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function toResponseError(e: unknown): ResponseError<unknown> {
  if (e instanceof ResponseError) return e;
  if (e instanceof RuntimeRequestError) return new ResponseError(e.code, e.message, e.data);
  if (e instanceof ConfigError) return new ResponseError(RpcErrorCode.ConfigError, e.message || 'invalid configuration', rpcErrorData(e));
  if (e instanceof ProviderError) {
    const message = e.message || 'provider error';
    const text = e.remedy && !message.includes(e.remedy) ? `${message}. Remedy: ${e.remedy}` : message;
    return new ResponseError(RpcErrorCode.ProviderError, text, rpcErrorData(e));
  }
  return new ResponseError(RpcErrorCode.InternalError, `internal error: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * The JSON-RPC server of `agentcli --mode rpc`: one message per line on stdin/stdout, logs on stderr. Every request is
 * validated against the protocol's schemas; nothing a host sends can crash the process.
 */
export function startRpcServer(opts: RpcServerOptions): Promise<void> {
  const connection = createNdjsonConnection(opts.input as never, opts.output as never, {
    answerViolations: true,
    ...(opts.maxMessageBytes ? { maxMessageBytes: opts.maxMessageBytes } : {}),
    onViolation: (v) => opts.log(`rejected message: ${v.message}`),
  });
  // Once the host closes our stdin the connection refuses to send, but the host may still read stdout: the events of
  // the shutdown (the aborted run's end, session_end) are written directly, and the exit waits for them to flush.
  let closed = false;
  const flushing = new Set<Promise<void>>();
  const writeDirect = (e: AgentEvent) => {
    const out = opts.output as NodeJS.WritableStream & { destroyed?: boolean; writableEnded?: boolean };
    if (out.destroyed || out.writableEnded) return;
    const line = JSON.stringify({ jsonrpc: '2.0', method: EVENT_NOTIFICATION, params: e }) + '\n';
    const done = new Promise<void>((resolve) => {
      try {
        out.write(line, () => resolve()); // the callback also runs on a write error (the host is gone)
      } catch {
        resolve();
      }
    });
    flushing.add(done);
    void done.then(() => flushing.delete(done));
  };
  const check = eventCheckFromEnv(process.env, opts.log, (code) => process.exit(code));
  const emit = (e: AgentEvent) => {
    check?.(e);
    if (closed) {
      writeDirect(e);
      return;
    }
    try {
      connection.sendNotification(EVENT_NOTIFICATION, e).catch(() => {});
    } catch {
      // the connection closed between the check and the send
    }
  };
  const session = opts.createSession(emit);
  const handlers = createHandlers(session, opts.capabilities);
  let initialized = false;
  /** The initialize being answered (it may wait for apply recovery): requests sent right behind it wait for it. */
  let initializing: Promise<unknown> | undefined;

  connection.onRequest(async (method: string, rawParams: unknown) => {
    if (!(methodNames as string[]).includes(method)) {
      throw new ResponseError(RpcErrorCode.MethodNotFound, `unknown method "${method}"; available methods: ${methodNames.join(', ')}`);
    }
    const name = method as MethodName;
    if (!initialized && name !== 'initialize' && initializing) await initializing.catch(() => undefined);
    if (!initialized && name !== 'initialize') {
      throw new ResponseError(RpcErrorCode.NotInitialized, `call "initialize" before "${name}"`);
    }
    if (Array.isArray(rawParams)) {
      throw new ResponseError(RpcErrorCode.InvalidParams, `"params" of ${name} must be an object, not an array`);
    }
    // Before validation: nothing deeper than the limit reaches code that walks values recursively.
    const tooDeep = paramsDepthError(rawParams, MAX_PARAMS_DEPTH);
    if (tooDeep) throw new ResponseError(RpcErrorCode.InvalidParams, `invalid params for ${name}: ${tooDeep}`);
    const parsed = methods[name].params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      throw new ResponseError(RpcErrorCode.InvalidParams, `invalid params for ${name}: ${formatZodIssues(parsed.error.issues)}`);
    }
    try {
      const answer = Promise.resolve((handlers[name] as (p: unknown) => unknown)(parsed.data));
      if (name === 'initialize') initializing = answer;
      const result = await answer;
      if (name === 'initialize') initialized = true;
      return result;
    } catch (e) {
      throw toResponseError(e);
    }
  });
  connection.onNotification(() => {
    // Hosts send no notifications in this protocol version; unknown ones are ignored as JSON-RPC requires.
  });

  return new Promise<void>((resolve) => {
    const close = async () => {
      if (closed) return;
      closed = true;
      const run = session.running;
      session.abort();
      // The aborted run ends (agent_end) before the session does; bounded, so a stuck tool cannot hold the exit.
      if (run) await Promise.race([run.done.catch(() => undefined), sleep(SHUTDOWN_RUN_WAIT_MS)]);
      session.end();
      await Promise.race([session.hooks.settled(), sleep(SHUTDOWN_HOOKS_WAIT_MS)]);
      await Promise.race([Promise.all([...flushing]), sleep(SHUTDOWN_FLUSH_WAIT_MS)]);
      connection.dispose();
      resolve();
    };
    connection.onClose(() => void close());
    connection.onError(([err]) => opts.log(`transport error: ${err.message}`));
    connection.listen();
  });
}
