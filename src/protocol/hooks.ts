import * as z from './zod';

/**
 * The 16 hook notifications (spec 001 §6). A shell hook in `hooks.<name>` of a config file (or added with `addHook`)
 * runs its command on each one with the notification as JSON on stdin (README "Hooks" lists every payload).
 * `before_tool` is awaited and may block the tool (exit code 2); the others run without holding up the run.
 */
export const HOOK_EVENT_NAMES = [
  'session_start',
  'session_end',
  'prompt_submitted',
  'run_end',
  'turn_start',
  'turn_end',
  'before_tool',
  'after_tool',
  'tool_failed',
  'permission_asked',
  'permission_decided',
  'file_modified',
  'changes_ready',
  'changes_decided',
  'error',
  'rate_limited',
] as const;
export const HookEventName = z.enum(HOOK_EVENT_NAMES);
export type HookEventName = z.infer<typeof HookEventName>;

/** Hook events whose `matcher` (a tool-name glob such as `run_*`) is checked; other events ignore it. */
export const TOOL_HOOK_EVENTS: readonly HookEventName[] = ['before_tool', 'after_tool', 'tool_failed', 'permission_asked', 'permission_decided'];

/** The longest a hook may run: 10 minutes. Default: DEFAULT_HOOK_TIMEOUT_MS. */
export const MAX_HOOK_TIMEOUT_MS = 600_000;
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/** One shell hook: `command` runs with `bash -c` in the workspace (sandboxed like run_command when the sandbox is on). */
export const HookCommand = z.object({
  command: z.string().trim().min(1, 'command must not be empty'),
  /** A tool-name glob for the tool events (`before_tool`, `after_tool`, `tool_failed`, `permission_*`). */
  matcher: z.string().min(1, 'matcher must not be empty').optional(),
  timeoutMs: z
    .number()
    .int('timeoutMs must be an integer')
    .positive('timeoutMs must be positive')
    .max(MAX_HOOK_TIMEOUT_MS, `timeoutMs must be at most ${MAX_HOOK_TIMEOUT_MS} (10 minutes)`)
    .optional(),
});
export type HookCommand = z.infer<typeof HookCommand>;

/** `addHook`'s definition: a hook command for one event, kept for the session. */
export const HookDefinition = HookCommand.extend({ event: HookEventName });
export type HookDefinition = z.infer<typeof HookDefinition>;

/** Where a hook that ran came from. */
export const HookSource = z.enum(['config', 'session', 'filesystem']);
export type HookSource = z.infer<typeof HookSource>;
