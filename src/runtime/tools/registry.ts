import { z } from 'zod';
import type { ChatToolSpec } from '../providers/types';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { createGrepTool } from './grep';
import { listFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { createRunCommandTool } from './run-command';
import type { ToolDefinition } from './types';
import { writeFileTool } from './write-file';

export interface CoreToolsOptions {
  /** Default run_command timeout (ms) when the call gives none. */
  commandTimeoutMs?: number;
  /** Ripgrep for grep: a path, null for the built-in JS search, undefined to look it up. */
  rgPath?: string | null;
}

/** The built-in tools, read-only ones first. */
export function createCoreTools(opts: CoreToolsOptions = {}): ToolDefinition[] {
  const tools = [
    readFileTool,
    listFilesTool,
    createGrepTool({ rgPath: opts.rgPath }),
    writeFileTool,
    editFileTool,
    deleteFileTool,
    createRunCommandTool({ commandTimeoutMs: opts.commandTimeoutMs }),
  ];
  return tools as unknown as ToolDefinition[];
}

/** The tool as the model sees it: name, description and the JSON schema of its input (no `$schema` noise). */
export function toChatToolSpec(tool: ToolDefinition): ChatToolSpec {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, parameters };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '';
  const quoted = field ? `"${field}"` : 'arguments';
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return `${quoted} is required`;
  return `${quoted}: ${issue.message}`;
}

/** Parse the model's raw JSON arguments and validate them; errors name the tool and the field. */
export function parseToolArgs(tool: ToolDefinition, rawJson: string): { ok: true; args: unknown } | { ok: false; error: string } {
  let value: unknown;
  if (rawJson.trim() === '') {
    value = {};
  } else {
    try {
      value = JSON.parse(rawJson);
    } catch (err) {
      return { ok: false, error: `invalid arguments for ${tool.name}: not valid JSON (${(err as Error).message})` };
    }
  }
  const parsed = tool.inputSchema.safeParse(value);
  if (parsed.success) return { ok: true, args: parsed.data };
  return { ok: false, error: `invalid arguments for ${tool.name}: ${parsed.error.issues.map(describeIssue).join('; ')}` };
}
