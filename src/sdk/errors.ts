import type { RunChange } from './run-change';
import { RpcErrorCode } from '../protocol/constants';

/** Base class of every error the SDK throws; `instanceof SdkError` catches them all. */
export class SdkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The runtime subprocess could not be started (missing CLI file, bad node path, spawn failure). */
export class RuntimeStartError extends SdkError {}

/** The runtime subprocess ended (crash, kill, or `stop()`) while something still waited on it. */
export class RuntimeExitedError extends SdkError {
  constructor(
    readonly code: number | null,
    readonly signal: string | null,
    /** The last lines the runtime wrote to stderr (its logs), oldest first. */
    readonly stderrTail: string[],
    reason = 'the runtime exited',
  ) {
    const how = signal ? `signal ${signal}` : `exit code ${code ?? 'unknown'}`;
    const tail = stderrTail.length > 0 ? `; last stderr lines:\n${stderrTail.join('\n')}` : '';
    super(`${reason} (${how})${tail}`);
  }
}

/** A method was called on a client that was never started or was stopped. */
export class RuntimeNotRunningError extends SdkError {}

/** A request got no answer within the per-request timeout. */
export class RequestTimeoutError extends SdkError {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`request "${method}" got no answer within ${timeoutMs} ms (raise the \`timeout\` option if the runtime is just slow)`);
  }
}

/** The runtime answered a request with a JSON-RPC error, or broke the protocol (see `InvalidEventError`). */
export class ProtocolError extends SdkError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly method?: string,
  ) {
    super(method ? `${method}: ${message} (code ${code})` : `${message} (code ${code})`);
  }
}

/** `prompt` while another run is active in the runtime (code -32010). */
export class RunInProgressError extends ProtocolError {}

/** `prompt` while a change batch waits for `decideChanges` (code -32011). */
export class BatchPendingError extends ProtocolError {}

/** The host and runtime speak incompatible protocol versions (code -32003). */
export class ProtocolVersionError extends ProtocolError {
  constructor(
    message: string,
    readonly hostVersion: string,
    readonly runtimeVersion: string | undefined,
    data?: unknown,
  ) {
    super(RpcErrorCode.ProtocolVersionMismatch, message, data, 'initialize');
  }
}

/**
 * The runtime sent an event that does not match the protocol (a runtime bug or an incompatible runtime).
 * The run it belongs to (every active run when the event names none) fails with it and is aborted in the runtime.
 */
export class InvalidEventError extends ProtocolError {
  constructor(
    /** The event's `type` as sent, when it had a string one. */
    readonly eventType: string | undefined,
    /** The event's `runId` as sent, when it had a string one. */
    readonly runId: string | undefined,
    readonly issues: ValidationIssue[],
  ) {
    super(
      RpcErrorCode.InvalidParams,
      `the runtime sent an invalid ${eventType ? `"${eventType}" ` : ''}event: ${formatIssues(issues)} (use an SDK and runtime from the same release)`,
      undefined,
      'event',
    );
  }
}

export interface ValidationIssue {
  /** Dotted path of the offending field; empty for the value itself. */
  path: string;
  message: string;
}

/** An argument given to the SDK is invalid; the message says which and how to fix it. */
export class InvalidArgumentError extends SdkError {
  constructor(
    message: string,
    readonly issues: ValidationIssue[] = [],
  ) {
    super(issues.length > 0 ? `${message}: ${formatIssues(issues)}` : message);
  }
}

/** The runtime's answer did not match the protocol schema (a runtime bug or an incompatible runtime). */
export class InvalidResponseError extends SdkError {
  constructor(
    readonly method: string,
    readonly issues: ValidationIssue[],
  ) {
    super(`the runtime's answer to "${method}" does not match the protocol: ${formatIssues(issues)}`);
  }
}

/** `runJson` got a final answer that is not JSON or does not match the schema. */
export class StructuredOutputError extends SdkError {
  constructor(
    message: string,
    /** The model's final text, exactly as received. */
    readonly raw: string,
    readonly issues: ValidationIssue[],
  ) {
    super(issues.length > 0 ? `${message}: ${formatIssues(issues)}` : message);
  }
}

/** A `stopWhen` condition threw; the run was stopped at that step boundary first. */
export class StopConditionError extends SdkError {
  constructor(
    readonly stepNumber: number,
    cause: unknown,
  ) {
    super(`stop condition threw at step ${stepNumber}: ${errorText(cause)} (the run was stopped)`, { cause });
  }
}

/** The `onPermissionRequest` callback threw; the request was denied. */
export class PermissionCallbackError extends SdkError {
  constructor(
    readonly requestId: string,
    cause: unknown,
  ) {
    super(`onPermissionRequest threw for request ${requestId}: ${errorText(cause)} (the request was denied)`, { cause });
  }
}

/** The `onDirectoryAccess` callback threw; the request was denied. */
export class DirectoryAccessCallbackError extends SdkError {
  constructor(
    readonly requestId: string,
    cause: unknown,
  ) {
    super(`onDirectoryAccess threw for request ${requestId}: ${errorText(cause)} (the request was denied)`, { cause });
  }
}

/** The `onChangeBatch` callback threw or gave an invalid answer; the batch was rejected (nothing of it was written). */
export class ChangeBatchCallbackError extends SdkError {
  /** The batch's changes with their outcomes (`rejected`, or `undecided` if even the rejection could not be sent). */
  changes: readonly RunChange[] = [];
  constructor(
    readonly batchId: string,
    cause: unknown,
  ) {
    super(`onChangeBatch failed for batch ${batchId}: ${errorText(cause)} (the batch was rejected)`, { cause });
  }
}

export function formatIssues(issues: ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Turns zod issues (or anything issue-like) into our plain form. */
export function toIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): ValidationIssue[] {
  return issues.map((i) => ({ path: i.path.map((p) => String(p)).join('.'), message: i.message }));
}

/** Maps a JSON-RPC error answer to the matching typed error. */
export function protocolErrorFrom(method: string, code: number, message: string, data?: unknown): ProtocolError {
  switch (code) {
    case RpcErrorCode.RunInProgress:
      return new RunInProgressError(code, message, data, method);
    case RpcErrorCode.BatchPending:
      return new BatchPendingError(code, message, data, method);
    default:
      return new ProtocolError(code, message, data, method);
  }
}
