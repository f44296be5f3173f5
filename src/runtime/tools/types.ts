import type * as z from '../../protocol/zod';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { SecretMasker } from '../secrets/masker';
import type { WorkspaceFiles } from '../workspace/types';

/** What a tool asks permission for; the permission layer turns it into `Tool(glob)` rule checks. */
export interface PermissionTarget {
  /** Rule tool name: `Read`, `Write`, `Bash`, or an MCP tool's name. */
  ruleTool: string;
  /** Absolute, resolved paths the call reads or writes. */
  paths?: string[];
  /** The exact shell command (for `Bash`). */
  command?: string;
  /** One line for the approval card, e.g. "Edit src/app.ts". */
  description: string;
  /** The rule an `always`/`session` answer stores when the call names no path, e.g. `Mcp(github:create_issue)`. */
  suggestedRule?: string;
}

export interface ToolContext {
  cwd: string;
  files: WorkspaceFiles;
  signal: AbortSignal;
  toolCallId: string;
  /** Stream partial output to the host (`tool_update`). */
  onOutput(chunk: string): void;
  /** Folder where full outputs too long for the model are saved (readable with read_file). */
  outputDir: string;
  /** How commands run (sandbox, environment); absent: the default sandbox for the workspace. */
  sandbox?: CommandSandbox;
  /** A person approved this very call (not a rule, a mode or an earlier answer for the session). */
  approvedByPerson?: boolean;
  /** Known secret values, masked in anything a tool saves to disk (the executor masks what it returns and streams). */
  secrets?: SecretMasker;
}

export interface ToolResult {
  /** Text the model sees (already truncated head+tail where needed). */
  output: string;
  isError?: boolean;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  inputSchema: S;
  /** Read-only tools are the only ones allowed in plan mode and restricted mode. */
  readOnly: boolean;
  /** Resolve what the call would touch. Throw a ToolInputError for unusable arguments. */
  permissionTarget(args: z.output<S>, ctx: { cwd: string }): PermissionTarget;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Bad arguments from the model: becomes a tool error the model sees, never a crash. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}
