import { RpcErrorCode } from '../protocol/constants';
import type { EventOf } from '../protocol/events';
import type { DirectoryAccessScope } from '../protocol/records';
import type { RuntimeClient } from './client';
import { DirectoryAccessCallbackError, ProtocolError, errorText } from './errors';

/** The runtime asks to let a tool reach a directory outside the workspace; the run waits for the answer. */
export type DirectoryAccessRequest = EventOf<'directory_access_request'>;

/**
 * What `onDirectoryAccess` answers: allow (for this one access, or `session` for the rest of the session),
 * deny, or `undefined` to leave the request open and answer later with `allowDirectory`/`denyDirectory`.
 */
export type DirectoryAccessDecision = 'allow' | 'deny' | { allow: true; scope?: DirectoryAccessScope } | { allow: false } | undefined;

export type DirectoryAccessCallback = (request: DirectoryAccessRequest) => DirectoryAccessDecision | Promise<DirectoryAccessDecision>;

export interface DirectoryAccessHost {
  readonly client: RuntimeClient;
  readonly callback: DirectoryAccessCallback | undefined;
  /** Reports a failure on the run the request belongs to (surfaced when the run ends). */
  noteRunError(runId: string, error: Error): void;
  /** Where the note about a default answer goes. */
  note(message: string): void;
}

/**
 * Without a callback nobody could answer, and the run would wait forever. The default mirrors the runtime's
 * own rule for runs without a user: allowed once when the runtime's permission mode is `unrestricted`, else denied
 * (the model is told access was denied and to stay inside the workspace).
 */
async function defaultDecision(host: DirectoryAccessHost, request: DirectoryAccessRequest): Promise<{ allowed: boolean; reason?: string }> {
  let unrestricted = false;
  try {
    unrestricted = (await host.client.getState()).permissionMode === 'unrestricted';
  } catch {
    // The state is unknown: deny, the safe answer.
  }
  host.note(
    unrestricted
      ? `directory access to ${request.path} allowed once (permission mode unrestricted, no onDirectoryAccess callback)`
      : `directory access to ${request.path} denied: no onDirectoryAccess callback to ask (pass one to Agent.create to decide)`,
  );
  return unrestricted ? { allowed: true } : { allowed: false, reason: 'no one is available to approve access outside the workspace' };
}

/** Answers one directory-access request through the callback, or with the default when there is none. */
export async function answerDirectoryAccess(host: DirectoryAccessHost, request: DirectoryAccessRequest): Promise<void> {
  let answer: { allowed: boolean; scope?: DirectoryAccessScope; reason?: string };
  if (!host.callback) {
    answer = await defaultDecision(host, request);
  } else {
    let decision: DirectoryAccessDecision;
    try {
      decision = await host.callback(request);
    } catch (e) {
      host.noteRunError(request.runId, new DirectoryAccessCallbackError(request.requestId, e));
      decision = 'deny';
    }
    if (decision === undefined) return;
    if (decision === 'allow') answer = { allowed: true };
    else if (decision === 'deny') answer = { allowed: false };
    else if (decision.allow) answer = decision.scope === undefined ? { allowed: true } : { allowed: true, scope: decision.scope };
    else answer = { allowed: false };
  }
  try {
    await host.client.respondToDirectoryAccess({ requestId: request.requestId, ...answer });
  } catch (e) {
    // A request cancelled by an abort meanwhile is already settled; anything else is reported on the run.
    if (e instanceof ProtocolError && e.code === RpcErrorCode.UnknownId) return;
    host.noteRunError(request.runId, new DirectoryAccessCallbackError(request.requestId, new Error(`answer failed: ${errorText(e)}`)));
  }
}
