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
 * A tool call refused because nobody could approve it (non-interactive) or a rule or the mode denies it.
 * `allowedBy`: `flag-or-rule` (--yolo or an allow rule such as `rule` would allow it; `directory` for a folder outside
 * the workspace, which only permissions.additionalDirectories allows, not --yolo), `interactive` (only someone answering the
 * question can: a protected path, a risky command, an ask rule), `config` (a deny rule or restricted mode refuses it).
 */
export interface DeniedAction {
  tool: string;
  /** The command, the path(s), or the action's description. */
  target: string;
  reason: string;
  allowedBy: 'flag-or-rule' | 'directory' | 'interactive' | 'config';
  rule?: string;
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
  /** Called for each refused tool call (see DeniedAction), so a one-shot run can summarise them at the end. */
  denied?(action: DeniedAction): void;
}
