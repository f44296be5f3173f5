import type { AgentEvent, DirectoryAccessScope, PermissionScope } from '../../protocol';

/** An event before the session stamps its `sessionId` on it. */
export type EventDraft = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 'sessionId'> : never) : never;

export type PermissionAnswer =
  | { allowed: true; scope: PermissionScope }
  | { allowed: false; scope: PermissionScope; alternative?: string };

export interface DirectoryAnswer {
  allowed: boolean;
  scope: DirectoryAccessScope;
  /** Why it was denied, when not by the user. */
  reason?: string;
}

/**
 * Who answers the runtime's questions. In rpc mode the host (SDK, extension) answers through JSON-RPC methods;
 * in a one-shot CLI run nobody can, so the policy decides at once and says so on stderr.
 */
export interface RunHost {
  /** True when someone can answer permission, directory and step requests. */
  readonly interactive: boolean;
  emit(event: AgentEvent): void;
  /** Called when a request could not be put to anyone (non-interactive): explain the automatic answer. */
  notice?(message: string): void;
}
