/**
 * The runtime events the chat transcript takes nothing from. The transcript reducer skips them and the extension does
 * not post them to the panel: each post is a trip through the window's renderer, and a run opens with two of them
 * (`turn_start`, `message_start`) ahead of its answer's first text. Kept apart from the reducer so the extension can
 * check an event without loading it.
 */
import type { AgentEvent } from '../../../protocol';

const UNSHOWN = [
  'turn_start',
  'turn_end',
  'message_start',
  'step_end',
  'mcp_invocation',
  'file_modified',
  'session_end',
  'tools_changed',
  'automode_iteration',
  'automode_complete',
  'automode_error',
  'learning_progress',
  'hook',
  'yolo_changed',
  'rate_limited',
] as const satisfies ReadonlyArray<AgentEvent['type']>;

type UnshownEvent = Extract<AgentEvent, { type: (typeof UNSHOWN)[number] }>;

const unshown: ReadonlySet<string> = new Set(UNSHOWN);

/** True for an event the transcript shows nothing of (see above). */
export function isUnshownEvent(e: AgentEvent): e is UnshownEvent {
  return unshown.has(e.type);
}
