import * as z from './zod';
import { ChangeBatch, HistoryMessage, PendingDirectoryAccess, PendingPermission, PermissionMode, PlanStep, SandboxState } from './records';
import { HookDefinition, HookEventName } from './hooks';
import { Empty } from './method-shapes';
import { YoloState } from './run-control';

export const RuntimeState = z.object({
  sessionId: z.string(),
  cwd: z.string(),
  status: z.enum(['idle', 'running']),
  runId: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  permissionMode: PermissionMode,
  planMode: z.boolean(),
  yolo: YoloState,
  pendingBatch: ChangeBatch.nullable(),
  pendingPermissions: z.array(PendingPermission),
  pendingDirectoryAccess: z.array(PendingDirectoryAccess),
  messageCount: z.number().int().nonnegative(),
  /** How run_command is isolated; `available: false` with `reason` (and the fix) when the sandbox cannot start. */
  sandbox: SandboxState.optional(),
  /** The plan plan mode proposed (`plan_proposed`) that waits for `respondToPlan`, e.g. for a panel opened later. */
  proposedPlan: z.object({ planId: z.string(), runId: z.string(), steps: z.array(PlanStep) }).optional(),
});
export type RuntimeState = z.infer<typeof RuntimeState>;

const MODEL_FORMAT = 'write <provider>/<model> (e.g. "ggufserver/qwen") or a bare model id of the current provider';

/** `setModel`'s selector: not blank, and both halves of a `<provider>/<model>` present. */
const ModelSelectorParam = z
  .string()
  .trim()
  .min(1, `model must not be empty: ${MODEL_FORMAT}`)
  .superRefine((s, ctx) => {
    if (s.startsWith('/')) ctx.addIssue({ code: 'custom', message: `the provider before "/" is missing in "${s}": ${MODEL_FORMAT}` });
    else if (s.endsWith('/')) ctx.addIssue({ code: 'custom', message: `the model after "/" is missing in "${s}": ${MODEL_FORMAT}` });
  });

/** The live session's settings (model, hooks, compaction, configuration) and what it holds (state, messages, context use). */
export const sessionStateMethods = {
  /**
   * `<provider>/<model>` switches both; a bare id switches the model of the current provider. A model id that itself
   * contains `/` needs its provider in front (`vendorapi/org/model`).
   */
  setModel: {
    params: z.object({ model: ModelSelectorParam }),
    result: z.object({ provider: z.string(), model: z.string() }),
  },
  /**
   * Add a shell hook for this session (README "Hooks"): it runs on `event` like one from a config file, until the
   * runtime exits. Answers how many hooks the session now has for that event.
   */
  addHook: { params: HookDefinition, result: z.object({ event: HookEventName, count: z.number().int().positive() }) },
  getState: { params: Empty, result: RuntimeState },
  getMessages: { params: Empty, result: z.object({ messages: z.array(HistoryMessage) }) },
  getContextUsage: {
    params: Empty,
    result: z.object({
      usedTokens: z.number().int().nonnegative(),
      contextWindow: z.number().int().positive().optional(),
      messageCount: z.number().int().nonnegative(),
      /** Context compaction: on or off, and the share of the window a request may reach before it compacts. */
      compaction: z.object({ enabled: z.boolean(), threshold: z.number() }).optional(),
    }),
  },
  /**
   * Context compaction on or off for this session: before a model request that would pass `compaction.threshold` of
   * the context window, older turns are summarised (event `context_compacted`), at most once per prompt.
   */
  setContextCompact: { params: z.object({ enabled: z.boolean() }), result: z.object({ enabled: z.boolean() }) },
  /** Models the current (or named) provider offers; ones the chat cannot run carry `available: false` and a reason. */
  listModels: {
    params: z.object({
      provider: z.string().optional(),
      /**
       * Settings to try (same shape as `configure`'s `config`): merged over the current configuration for this listing
       * only and never applied, so a host can check a provider before it saves anything (a dry run).
       */
      config: z.record(z.string(), z.unknown()).optional(),
    }),
    result: z.object({
      provider: z.string(),
      current: z.string(),
      models: z.array(
        z.object({
          id: z.string(),
          available: z.boolean(),
          reason: z.string().optional(),
          contextWindow: z.number().int().positive().optional(),
          maxOutput: z.number().int().positive().optional(),
          /** Catalog fields this version does not know, passed through unchanged. */
          extra: z.record(z.string(), z.unknown()).optional(),
        }),
      ),
    }),
  },
  /**
   * Overlay settings on the loaded config, in memory only (never written to a file), keeping the conversation.
   * Same shape as the config file; secrets such as API keys may be passed here. Each call replaces the previous
   * overlay, so a setting left out falls back to the config files.
   */
  configure: {
    params: z.object({ config: z.record(z.string(), z.unknown()) }),
    result: z.object({ provider: z.string(), model: z.string() }),
  },
} as const;
