import * as z from './zod';
import { HistoryMessage, PermissionMode, PromptContext, RecoveredApply, ResponseFormat } from './records';
import { Empty } from './method-shapes';

export const Capabilities = z.object({
  loopTypes: z.array(z.string()),
  tools: z.array(z.string()),
  stepControl: z.boolean(),
  changeBatches: z.boolean(),
  structuredOutput: z.boolean(),
  editorMcpTools: z.boolean(),
});
export type Capabilities = z.infer<typeof Capabilities>;

/** The handshake, starting a run and aborting it. */
export const runMethods = {
  initialize: {
    params: z.object({
      protocolVersion: z.string(),
      clientInfo: z.object({ name: z.string(), version: z.string() }).optional(),
    }),
    result: z.object({
      protocolVersion: z.string(),
      runtimeVersion: z.string(),
      sessionId: z.string(),
      cwd: z.string(),
      provider: z.string(),
      model: z.string(),
      permissionMode: PermissionMode,
      capabilities: Capabilities,
      /**
       * Change batches that a runtime killed mid-apply left in this workspace, rolled back at this start (or found
       * completed); absent when there were none.
       */
      recoveredApplies: z.array(RecoveredApply).optional(),
    }),
  },
  /** Start a run. Answers as soon as the run is accepted; progress and the end arrive as events. */
  prompt: {
    params: z.object({
      message: z.string().min(1, 'message must not be empty'),
      context: z.array(PromptContext).optional(),
      /** Wait for `respondToStep` after each completed tool step (SDK `stopWhen`). */
      stepControl: z.boolean().optional(),
      maxIterations: z.number().int().positive().optional(),
      responseFormat: ResponseFormat.optional(),
      /**
       * Prior messages that start a fresh conversation before this prompt (SDK `Runner.run` with a pre-built
       * `Session`): `user`, `assistant` (with `toolCalls`) and `tool` messages, every tool call answered. Refused
       * (InvalidParams) once the conversation has messages: call `reset` first.
       */
      history: z.array(HistoryMessage.extend({ role: z.enum(['user', 'assistant', 'tool']) })).optional(),
    }),
    result: z.object({ runId: z.string() }),
  },
  /** Cancel the active run (HTTP request, commands, pending approvals). Always answers. */
  abort: { params: Empty, result: z.object({ aborted: z.boolean(), runId: z.string().optional() }) },
} as const;
