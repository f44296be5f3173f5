import * as z from './zod';
import { Empty, Ok } from './method-shapes';

/** One tool in `getToolsRegistry`. */
export const ToolRegistryEntry = z.object({
  /** The name the model sees (`read_file`, `editor_<name>`, `mcp__<server>__<tool>`). */
  name: z.string(),
  source: z.enum(['builtin', 'editor', 'mcp']),
  /** The MCP server (source `mcp`). */
  server: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  /** The permission rule tool that covers it: `Read`, `Write`, `Bash`, `editor_<name>`, `Mcp(<server>:<tool>)`. */
  permissionRule: z.string(),
  readOnly: z.boolean(),
  enabled: z.boolean(),
  /** Why it is not enabled (plan mode, a server that is not running, an unusable schema). */
  disabledReason: z.string().optional(),
});
export type ToolRegistryEntry = z.infer<typeof ToolRegistryEntry>;

/** A configured MCP server in `getToolsRegistry`. */
export const McpServerStatus = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'streamable-http', 'sse']).optional(),
  state: z.enum(['starting', 'ready', 'failed', 'disabled']),
  error: z.string().optional(),
  /** The last lines a local server wrote to stderr before it failed. */
  stderrTail: z.string().optional(),
  toolCount: z.number().int().nonnegative(),
  restarts: z.number().int().nonnegative(),
});
export type McpServerStatus = z.infer<typeof McpServerStatus>;

/** The tools the model is offered: the editor's own, and the registry of every tool with the MCP servers' states. */
export const toolMethods = {
  /**
   * Register tools hosted by the editor; the model sees them as `editor_<name>`. Replaces the previous set. Each
   * `inputSchema` must have `"type": "object"` at the top and stay within MAX_EDITOR_SCHEMA_DEPTH levels and
   * MAX_EDITOR_SCHEMA_BYTES; otherwise the call is refused (-32602) and the previous set stays.
   */
  setEditorMcpTools: {
    params: z.object({
      tools: z.array(
        z.object({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,48}$/, 'tool names use letters, digits, _ and - (max 48)'),
          description: z.string(),
          inputSchema: z.record(z.string(), z.unknown()),
        }),
      ),
    }),
    result: z.object({ registered: z.array(z.string()) }),
  },
  /**
   * Every tool the model can be offered: built-in, editor (`setEditorMcpTools`) and MCP server tools, each with its
   * JSON schema, the permission rule that names it, and whether it is enabled (and why not); plus each configured MCP
   * server's state (a failed one with its error and stderr tail). `tools_changed` tells when this changes.
   */
  getToolsRegistry: { params: Empty, result: z.object({ tools: z.array(ToolRegistryEntry), servers: z.array(McpServerStatus) }) },
  /** Exactly one answer per `mcp_invocation` request id: success with a result, or failure with an error. */
  respondToMcpInvocation: {
    params: z
      .object({ requestId: z.string().min(1), success: z.boolean(), result: z.string().optional(), error: z.string().optional() })
      .refine((p) => (p.success ? p.result !== undefined && p.error === undefined : p.error !== undefined), {
        message: 'a success carries a result and no error; a failure carries an error',
        path: ['success'],
      }),
    result: Ok,
  },
} as const;
