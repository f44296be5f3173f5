/**
 * Our run events as ACP `session/update`s: assistant text as `agent_message_chunk`, tool calls as `tool_call` then
 * `tool_call_update`s (kind, status, output, and a `diff` for every file a call wrote), plans as `plan`. Stateful per
 * session: it remembers which tool calls the client has heard of and the writes not yet shown.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { PlanEntry, SessionUpdate, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../../protocol';
import type { WriteRecord } from './client-files';
import { MAX_SHOWN_OUTPUT_CHARS, shownOutput, toolKind, toolLocations, toolTitle } from './tool-calls';

/** The least time between two output updates of one running tool call. */
export const OUTPUT_INTERVAL_MS = 100;

interface PlanStepLike {
  title: string;
  status: string;
}

/** A plan step's status in ACP terms (ACP has no failed or skipped: such a step is completed, and says so). */
export function planEntries(steps: readonly PlanStepLike[]): PlanEntry[] {
  return steps.map((s) => {
    const status = s.status === 'pending' || s.status === 'in_progress' ? s.status : 'completed';
    const note = s.status === 'failed' || s.status === 'skipped' ? ` (${s.status})` : '';
    return { content: `${s.title}${note}`, priority: 'medium', status };
  });
}

function diffContent(w: WriteRecord): ToolCallContent {
  // ACP has no deletion diff: a deleted file is shown as emptied.
  return { type: 'diff', path: w.path, oldText: w.oldText, newText: w.newText ?? '' };
}

const text = (t: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text: t } });

export class UpdateMapper {
  /** Tool calls the client has a `tool_call` for. */
  private readonly announced = new Set<string>();
  /** Each running call's streamed output: its tail, and how many characters before it were dropped. */
  private readonly output = new Map<string, { tail: string; dropped: number }>();
  private readonly args = new Map<string, unknown>();
  private writes: WriteRecord[] = [];
  /** When each running call's output was last sent. */
  private readonly outputSentAt = new Map<string, number>();

  constructor(
    private readonly cwd: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A write the file layer applied; shown with the tool call that made it. */
  recordWrite(w: WriteRecord): void {
    this.writes.push(w);
  }

  /**
   * A `tool_call` for a call the client has not heard of (a permission request comes before the call starts), so the
   * request can refer to it; undefined when it was announced already.
   */
  announce(toolCallId: string, tool: string, title: string, paths: readonly string[] = []): SessionUpdate | undefined {
    if (this.announced.has(toolCallId)) return undefined;
    this.announced.add(toolCallId);
    return {
      sessionUpdate: 'tool_call',
      toolCallId,
      title,
      kind: toolKind(tool),
      status: 'pending',
      locations: paths.map((p) => ({ path: path.resolve(this.cwd, p) })),
    };
  }

  map(event: AgentEvent): SessionUpdate[] {
    switch (event.type) {
      case 'message_update':
        return event.delta === '' ? [] : [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta } }];
      case 'tool_start':
        return [this.started(event.toolCallId, event.toolName, event.args)];
      case 'tool_update':
        return this.progress(event.toolCallId, event.output);
      case 'tool_end':
        return [this.ended(event.toolCallId, event.success, event.success ? (event.output ?? '') : (event.error ?? 'failed'))];
      default:
        return this.other(event);
    }
  }

  /**
   * Streamed output: each update carries the output so far (ACP content replaces the previous), so at most one is sent
   * per OUTPUT_INTERVAL_MS (a command printing line by line would otherwise send its whole tail per line); the call's
   * end carries the full result.
   */
  private progress(toolCallId: string, chunk: string): SessionUpdate[] {
    const seen = this.output.get(toolCallId) ?? { tail: '', dropped: 0 };
    let tail = seen.tail + chunk;
    let dropped = seen.dropped;
    if (tail.length > 2 * MAX_SHOWN_OUTPUT_CHARS) {
      dropped += tail.length - MAX_SHOWN_OUTPUT_CHARS;
      tail = tail.slice(-MAX_SHOWN_OUTPUT_CHARS);
    }
    this.output.set(toolCallId, { tail, dropped });
    const now = this.now();
    if (now - (this.outputSentAt.get(toolCallId) ?? -Infinity) < OUTPUT_INTERVAL_MS) return [];
    this.outputSentAt.set(toolCallId, now);
    return [{ sessionUpdate: 'tool_call_update', toolCallId, content: [text(shownOutput(tail, dropped))] }];
  }

  private other(event: AgentEvent): SessionUpdate[] {
    // Plan events come from the plan-and-execute loop; read loosely so this works whatever else the union holds.
    if (event.type === 'context_compacted') {
      const what = `Compacted the conversation: ${event.messagesBefore} messages (about ${event.tokensBefore} tokens) summarised into ${event.messagesAfter} (about ${event.tokensAfter}).`;
      return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${what}\n\n` } }];
    }
    const e = event as { type: string; steps?: PlanStepLike[] };
    if ((e.type === 'plan_update' || e.type === 'plan_proposed') && Array.isArray(e.steps)) {
      return [{ sessionUpdate: 'plan', entries: planEntries(e.steps) }];
    }
    return [];
  }

  private started(toolCallId: string, tool: string, args: unknown): SessionUpdate {
    this.args.set(toolCallId, args);
    const fields = { toolCallId, title: toolTitle(tool, args), kind: toolKind(tool), status: 'in_progress' as const, rawInput: args, locations: toolLocations(this.cwd, args) };
    if (this.announced.has(toolCallId)) return { sessionUpdate: 'tool_call_update', ...fields };
    this.announced.add(toolCallId);
    return { sessionUpdate: 'tool_call', ...fields };
  }

  private ended(toolCallId: string, success: boolean, result: string): SessionUpdate {
    const target = toolLocations(this.cwd, this.args.get(toolCallId))[0]?.path;
    // The writes of this call: those to the file its arguments name (calls run one at a time, so normally all of them).
    const mine = this.writes.filter((w) => target === undefined || samePath(w.path, target));
    this.writes = this.writes.filter((w) => !mine.includes(w));
    this.output.delete(toolCallId);
    this.outputSentAt.delete(toolCallId);
    this.args.delete(toolCallId);
    const update: ToolCallUpdate = {
      toolCallId,
      status: success ? 'completed' : 'failed',
      content: [...mine.map(diffContent), ...(result !== '' ? [text(shownOutput(result))] : [])],
      rawOutput: success ? { output: result } : { error: result },
    };
    return { sessionUpdate: 'tool_call_update', ...update };
  }
}

function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  // A symlinked folder (macOS /tmp): the write record has the real path, the arguments the given one.
  return path.basename(a) === path.basename(b) && realOrSelf(a) === realOrSelf(b);
}

function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}
