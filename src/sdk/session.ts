import { readFileSync, writeFileSync } from 'node:fs';
import * as z from '../protocol/zod';
import { HistoryMessage } from '../protocol/records';
import { InvalidArgumentError, SdkError, errorText } from './errors';

/** The version of the JSON file `Session.save` writes; `Session.load` reads only this one. */
export const SESSION_FILE_VERSION = 1;

/** One message of a session: `role` and `content`; assistant messages may carry `toolCalls`, tool messages answer one. */
export const SessionMessage = HistoryMessage.extend({ role: z.enum(['user', 'assistant', 'tool']) }).strict();
export type SessionMessage = z.infer<typeof SessionMessage>;

/** A tool call a run made, with its result (`output`) or its failure (`error`). */
export const SessionToolCall = z
  .object({
    id: z.string().min(1),
    name: z.string().min(1),
    /** The arguments the model gave (as received in `tool_start`). */
    args: z.unknown(),
    success: z.boolean(),
    output: z.string().optional(),
    error: z.string().optional(),
    runId: z.string().optional(),
  })
  .strict();
export type SessionToolCall = z.infer<typeof SessionToolCall>;

/** An error a run met: a failed run (`code` is the run's error code) or an `error` event (provider, tool...). */
export const SessionError = z
  .object({ code: z.string().min(1), message: z.string(), runId: z.string().optional(), toolCallId: z.string().optional() })
  .strict();
export type SessionError = z.infer<typeof SessionError>;

/** The file `save` writes: `{ version: 1, messages, toolCalls, errors }`. */
export const SessionFile = z
  .object({
    version: z.literal(SESSION_FILE_VERSION),
    messages: z.array(SessionMessage),
    toolCalls: z.array(SessionToolCall),
    errors: z.array(SessionError),
  })
  .strict();
export type SessionFile = z.infer<typeof SessionFile>;

/** `Session.load` could not read the file: `path` names it, the message says what was wrong. */
export class SessionFileError extends SdkError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`cannot load session file ${path}: ${problem}`);
  }
}

function nonEmptyText(text: unknown, what: string): string {
  if (typeof text !== 'string' || text.trim() === '') throw new InvalidArgumentError(`${what} must be a non-empty string`);
  return text;
}

/**
 * A conversation for `Runner.run` (spec 001 §2.4): built by hand with `addUserMessage`/`addAssistantMessage`, or
 * returned by a run with the run's messages, tool calls and errors added. `save(path)` writes it as JSON and
 * `Session.load(path)` reads it back; a session given to `Runner.run` is the conversation the model continues.
 */
export class Session {
  private readonly messageList: SessionMessage[] = [];
  private readonly toolCallList: SessionToolCall[] = [];
  private readonly errorList: SessionError[] = [];

  /** The messages, oldest first (copies: change the session through its methods). */
  get messages(): SessionMessage[] {
    return this.messageList.map((m) => structuredClone(m));
  }

  /** Every tool call the runs of this session made, with results and failures. */
  get toolCalls(): SessionToolCall[] {
    return this.toolCallList.map((c) => structuredClone(c));
  }

  get errors(): SessionError[] {
    return this.errorList.map((e) => ({ ...e }));
  }

  addUserMessage(text: string): this {
    this.messageList.push({ role: 'user', content: nonEmptyText(text, 'a user message') });
    return this;
  }

  addAssistantMessage(text: string): this {
    this.messageList.push({ role: 'assistant', content: nonEmptyText(text, 'an assistant message') });
    return this;
  }

  /** Adds what a run produced (used by `Runner.run`). */
  record(part: { messages?: SessionMessage[]; toolCalls?: SessionToolCall[]; errors?: SessionError[] }): void {
    this.messageList.push(...(part.messages ?? []).map((m) => structuredClone(m)));
    this.toolCallList.push(...(part.toolCalls ?? []).map((c) => structuredClone(c)));
    this.errorList.push(...(part.errors ?? []).map((e) => ({ ...e })));
  }

  toJSON(): SessionFile {
    return { version: SESSION_FILE_VERSION, messages: this.messages, toolCalls: this.toolCalls, errors: this.errors };
  }

  /** Writes the session as JSON (`{ version: 1, messages, toolCalls, errors }`) to `path`. */
  save(path: string): void {
    nonEmptyText(path, 'the session file path');
    writeFileSync(path, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
  }

  /** Builds a session from the JSON `save` wrote (or `toJSON` gave); throws InvalidArgumentError naming the problem. */
  static fromJSON(data: unknown): Session {
    const parsed = SessionFile.safeParse(data);
    if (!parsed.success) throw new InvalidArgumentError('not a session record', parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    const session = new Session();
    session.record(parsed.data);
    return session;
  }

  /** Reads a file `save` wrote; throws `SessionFileError` naming the path and what was wrong (missing, not JSON, bad shape). */
  static load(path: string): Session {
    nonEmptyText(path, 'the session file path');
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new SessionFileError(path, (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorText(e));
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new SessionFileError(path, `not JSON (${errorText(e)})`);
    }
    const parsed = SessionFile.safeParse(data);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`);
      const hint = typeof data === 'object' && data !== null && (data as { version?: unknown }).version !== SESSION_FILE_VERSION ? ` (expected version ${SESSION_FILE_VERSION})` : '';
      throw new SessionFileError(path, `not a session record${hint}: ${issues.join('; ')}`);
    }
    const session = new Session();
    session.record(parsed.data);
    return session;
  }
}
