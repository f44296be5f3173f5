/**
 * The `hooks` key of `~/.agentcli/config.json` and `.agentcli/config.json`:
 * `{ "<notification>": [{ "command": "...", "matcher"?: "run_*", "timeoutMs"?: 5000 }] }` (README "Hooks").
 * Messages follow the dotted key, as the other config messages do.
 */
import * as z from '../../protocol/zod';
import { HOOK_EVENT_NAMES, MAX_HOOK_TIMEOUT_MS, type HookEventName } from '../../protocol/hooks';

const timeoutMessage = `must be a positive integer of milliseconds, at most ${MAX_HOOK_TIMEOUT_MS} (10 minutes)`;

// Built on first use (z.lazy): most runs configure no hook, and a start builds only what it parses.
export const HookCommandSettingsSchema = z.lazy(() =>
  z.looseObject({
    command: z.string({ error: 'must be a shell command string' }).trim().min(1, { error: 'must be a shell command, not empty' }),
    matcher: z.string({ error: 'must be a tool-name glob such as "run_*"' }).min(1, { error: 'must be a tool-name glob such as "run_*", not empty' }).optional(),
    timeoutMs: z
      .number({ error: timeoutMessage })
      .int({ error: timeoutMessage })
      .positive({ error: timeoutMessage })
      .max(MAX_HOOK_TIMEOUT_MS, { error: timeoutMessage })
      .optional(),
  }),
);

const listMessage = 'must be an array of hooks such as [{ "command": "./notify.sh" }]';

export const HooksSettingsSchema = z.lazy(() =>
  z
    .record(z.string(), z.array(HookCommandSettingsSchema, { error: listMessage }), {
      error: 'must be an object of hook notifications, e.g. { "before_tool": [{ "command": "./check.sh" }] }',
    })
    .superRefine((hooks, ctx) => {
      for (const key of Object.keys(hooks)) {
        if (!(HOOK_EVENT_NAMES as readonly string[]).includes(key)) {
          ctx.addIssue({ code: 'custom', path: [key], message: `is not a hook notification; the notifications are ${HOOK_EVENT_NAMES.join(', ')}` });
        }
      }
    }),
);

export type HookCommandSettings = z.output<typeof HookCommandSettingsSchema>;
export type HooksSettings = Partial<Record<HookEventName, HookCommandSettings[]>>;
