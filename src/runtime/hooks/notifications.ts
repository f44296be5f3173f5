/**
 * Turns the session's events into the hook notifications (README "Hooks" lists each payload). `before_tool` and
 * `session_start` are raised by the session itself; the other 14 follow from events the run emits anyway.
 */
import type { HookEventName } from '../../protocol/hooks';
import type { EventDraft } from '../agent/host';

export interface HookNotification {
  name: HookEventName;
  /** The tool a tool event is about (checked against `matcher`). */
  toolName?: string;
  /** The notification's own fields; `event`, `sessionId` and `cwd` are added when it is sent. */
  fields: Record<string, unknown>;
}

/** Remembers what later events leave out: a tool call's arguments, the tool a permission request was for. */
export class NotificationTracker {
  private readonly toolArgs = new Map<string, unknown>();
  private readonly permissionTools = new Map<string, string>();

  /** The notification an event raises, if any. */
  fromEvent(e: EventDraft): HookNotification | undefined {
    switch (e.type) {
      case 'agent_start':
        return { name: 'prompt_submitted', fields: { runId: e.runId, prompt: e.prompt } };
      case 'agent_end':
        this.toolArgs.clear();
        this.permissionTools.clear();
        return {
          name: 'run_end',
          fields: { runId: e.runId, status: e.status, text: e.text, ...(e.stoppedReason ? { stoppedReason: e.stoppedReason } : {}), ...(e.error ? { error: e.error } : {}) },
        };
      case 'turn_start':
        return { name: 'turn_start', fields: { runId: e.runId, turnId: e.turnId, turnNumber: e.turnNumber } };
      case 'turn_end':
        return { name: 'turn_end', fields: { runId: e.runId, turnId: e.turnId, reason: e.reason } };
      case 'tool_start':
        this.toolArgs.set(e.toolCallId, e.args);
        return undefined;
      case 'tool_end': {
        const args = this.toolArgs.get(e.toolCallId);
        this.toolArgs.delete(e.toolCallId);
        const call = { runId: e.runId, turnId: e.turnId, toolCallId: e.toolCallId, toolName: e.toolName, args, durationMs: e.durationMs };
        return e.success
          ? { name: 'after_tool', toolName: e.toolName, fields: { ...call, output: e.output ?? '' } }
          : { name: 'tool_failed', toolName: e.toolName, fields: { ...call, error: e.error ?? '' } };
      }
      case 'permission_request':
        this.permissionTools.set(e.requestId, e.tool);
        return {
          name: 'permission_asked',
          toolName: e.tool,
          fields: {
            runId: e.runId,
            turnId: e.turnId,
            requestId: e.requestId,
            toolCallId: e.toolCallId,
            toolName: e.tool,
            description: e.description,
            ...(e.command !== undefined ? { command: e.command } : {}),
            ...(e.paths ? { paths: e.paths } : {}),
          },
        };
      case 'permission_resolved': {
        const tool = this.permissionTools.get(e.requestId);
        this.permissionTools.delete(e.requestId);
        return {
          name: 'permission_decided',
          ...(tool !== undefined ? { toolName: tool } : {}),
          fields: { runId: e.runId, turnId: e.turnId, requestId: e.requestId, toolName: tool ?? null, outcome: e.outcome, ...(e.scope ? { scope: e.scope } : {}) },
        };
      }
      case 'file_modified':
        return { name: 'file_modified', fields: { path: e.path, ...(e.changeId ? { changeId: e.changeId } : {}) } };
      case 'change_batch_ready':
        return {
          name: 'changes_ready',
          fields: { runId: e.runId, batchId: e.batch.id, files: e.batch.changes.map((c) => ({ changeId: c.id, path: c.path, kind: c.kind, additions: c.additions, deletions: c.deletions })) },
        };
      case 'change_batch_decided':
        return { name: 'changes_decided', fields: { batchId: e.batchId, results: e.results } };
      case 'error':
        return {
          name: 'error',
          fields: { ...(e.runId ? { runId: e.runId } : {}), code: e.code, error: e.error, ...(e.toolCallId ? { toolCallId: e.toolCallId } : {}), ...(e.remedy ? { remedy: e.remedy } : {}) },
        };
      case 'rate_limited':
        return {
          name: 'rate_limited',
          fields: { ...(e.runId ? { runId: e.runId } : {}), provider: e.provider, retryAfterMs: e.retryAfterMs, attempt: e.attempt, willRetry: e.willRetry },
        };
      case 'session_end':
        return { name: 'session_end', fields: { durationMs: e.duration } };
      default:
        return undefined;
    }
  }
}
