import type { HistoryMessage } from '../protocol/records';
import { Agent, type AgentOptions } from './agent';
import { InvalidArgumentError, SdkError, errorText } from './errors';
import type { SdkEvent } from './generic-event';
import { RunFailedError, type RunOptions, type RunResult } from './run';
import { Session, type SessionError, type SessionMessage, type SessionToolCall } from './session';

/** Runtime options of a runner agent: those of `Agent.create` except the ones the definition or the session gives. */
export type RunnerAgentOptions = Partial<Omit<AgentOptions, 'instructions' | 'sessionId'>>;

/** An agent definition for `Runner.run` (spec 001 §2.4 `Agent(name, instructions)`). */
export interface AgentDefinition extends RunnerAgentOptions {
  /** A label for the agent (named in errors); the model is not told it unless the instructions say so. */
  readonly name: string;
  /** The agent's persona and rules, appended to the runtime's system prompt. */
  readonly instructions: string;
}

/** Defines an agent for `Runner.run`: `{ name, instructions }`, plus any `Agent.create` option (`cwd` defaults to this process's). */
export function defineAgent(definition: AgentDefinition): AgentDefinition {
  if (definition === null || typeof definition !== 'object') throw new InvalidArgumentError('defineAgent needs { name, instructions }');
  if (typeof definition.name !== 'string' || definition.name.trim() === '') throw new InvalidArgumentError('defineAgent: name must be a non-empty string');
  if (typeof definition.instructions !== 'string') throw new InvalidArgumentError(`defineAgent "${definition.name}": instructions must be a string`);
  return Object.freeze({ ...definition });
}

export interface RunnerOptions extends RunnerAgentOptions {
  /** The conversation to continue: built by hand, loaded with `Session.load`, or returned by an earlier `Runner.run`. */
  session?: Session;
  /** Options of the run itself (`stopWhen`, `maxIterations`, `responseFormat`, ...). */
  run?: Omit<RunOptions, 'history'>;
}

export interface RunnerResult {
  /** The final assistant text of the run. */
  finalOutput: string;
  /** The given session (unchanged) plus this run's messages, tool calls and errors: a new `Session`. */
  session: Session;
  status: RunResult['status'];
  runId: string;
}

/** The run failed (see `cause`, a `RunFailedError` or a start error); `session` holds what it recorded, error included. */
export class RunnerError extends SdkError {
  constructor(
    readonly agentName: string,
    readonly session: Session,
    cause: unknown,
  ) {
    super(`agent "${agentName}" failed: ${errorText(cause)}`, { cause });
  }
}

const sameMessage = (a: HistoryMessage, b: HistoryMessage) => a.role === b.role && a.content === b.content && a.toolCallId === b.toolCallId;

/**
 * This run's messages in the runtime's history: the ones after the prior messages, or (when the runtime compacted the
 * older ones into a summary) from the run's user message on.
 */
function runMessages(all: HistoryMessage[], prior: SessionMessage[]): SessionMessage[] {
  const history = all.filter((m): m is SessionMessage => m.role !== 'system');
  const kept = prior.length <= history.length && prior.every((m, i) => sameMessage(m, history[i] as HistoryMessage));
  if (kept) return history.slice(prior.length);
  const lastUser = history.map((m) => m.role).lastIndexOf('user');
  return lastUser < 0 ? [] : history.slice(lastUser);
}

function toolCallsOf(events: SdkEvent[]): SessionToolCall[] {
  const calls = new Map<string, SessionToolCall>();
  for (const e of events) {
    if (e.type === 'tool_start') calls.set(e.toolCallId, { id: e.toolCallId, name: e.toolName, args: e.args, success: false, runId: e.runId });
    else if (e.type === 'tool_end') {
      const call = calls.get(e.toolCallId) ?? { id: e.toolCallId, name: e.toolName, args: undefined, success: false, runId: e.runId };
      calls.set(e.toolCallId, {
        ...call,
        success: e.success,
        ...(e.output !== undefined ? { output: e.output } : {}),
        ...(e.error !== undefined ? { error: e.error } : {}),
      });
    }
  }
  return [...calls.values()];
}

function errorsOf(events: SdkEvent[]): SessionError[] {
  return events.flatMap((e) =>
    e.type === 'error' ? [{ code: e.code, message: e.error, ...(e.runId ? { runId: e.runId } : {}), ...(e.toolCallId ? { toolCallId: e.toolCallId } : {}) }] : [],
  );
}

/**
 * Runs agent definitions (spec 001 §2.4). Each `run` starts a runtime with the agent's instructions, gives it the
 * session's messages as the start of the conversation (`prompt` with `history`, so the model sees them), runs the
 * prompt, and closes the runtime.
 */
export const Runner = {
  async run(agent: AgentDefinition, prompt: string, options: RunnerOptions = {}): Promise<RunnerResult> {
    if (agent === null || typeof agent !== 'object' || typeof agent.name !== 'string') throw new InvalidArgumentError('Runner.run needs an agent from defineAgent');
    if (typeof prompt !== 'string' || prompt.trim() === '') throw new InvalidArgumentError('Runner.run: prompt must be a non-empty string');
    const { session: given, run: runOptions = {}, ...overrides } = options;
    if (given !== undefined && !(given instanceof Session)) throw new InvalidArgumentError('Runner.run: session must be a Session (new Session(), Session.load or a result.session)');
    const { name, instructions, ...agentOptions } = agent;
    const prior = given?.messages ?? [];
    const session = Session.fromJSON(given?.toJSON() ?? new Session().toJSON());
    const runtime = await Agent.create({ cwd: process.cwd(), ...agentOptions, ...overrides, instructions });
    try {
      let result: RunResult;
      try {
        result = await runtime.run(prompt, { ...runOptions, ...(prior.length > 0 ? { history: prior } : {}) });
      } catch (e) {
        const events = e instanceof RunFailedError ? e.result.events : [];
        const fromEvents = errorsOf(events);
        const own: SessionError[] = e instanceof RunFailedError ? [{ code: e.code, message: e.message, ...(e.result.id ? { runId: e.result.id } : {}) }] : [{ code: 'sdk_error', message: errorText(e) }];
        const messages = await runtime.getMessages().then((r) => runMessages(r.messages, prior), () => [{ role: 'user' as const, content: prompt }]);
        session.record({ messages, toolCalls: toolCallsOf(events), errors: [...fromEvents, ...own] });
        throw new RunnerError(name, session, e);
      }
      const { messages } = await runtime.getMessages();
      session.record({ messages: runMessages(messages, prior), toolCalls: toolCallsOf(result.events), errors: errorsOf(result.events) });
      return { finalOutput: result.text, session, status: result.status, runId: result.id };
    } finally {
      await runtime.close();
    }
  },
};
