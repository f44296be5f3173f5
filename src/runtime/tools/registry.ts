import * as z from '../../protocol/zod';
import type { ToolRegistryEntry } from '../../protocol/methods';
import type { ChatToolSpec } from '../providers/types';
import { deleteFileTool } from './delete-file';
import { editFileTool } from './edit-file';
import { createGrepTool } from './grep';
import { createListFilesTool } from './list-files';
import { readFileTool } from './read-file';
import { createRunCommandTool } from './run-command';
import type { ToolDefinition } from './types';
import { writeFileTool } from './write-file';

export interface CoreToolsOptions {
  /** Default run_command timeout (ms) when the call gives none. */
  commandTimeoutMs?: number;
  /** Ripgrep for grep and list_files: a path, null for the built-in JS search and walk, undefined to look it up. */
  rgPath?: string | null;
}

/**
 * Set at build time (JSON text): the JSON Schema of each built-in tool's input, made by toChatToolSpec from the same zod
 * schemas (scripts/core-tool-parameters.ts), so a CLI start neither builds those schemas nor converts them. Undefined
 * when running from source: then they are made on first use.
 */
declare const __AGENTCLI_CORE_TOOL_PARAMETERS__: string | undefined;
let prebuiltParameters: Record<string, Record<string, unknown>> | undefined;

/** The definitions createCoreTools made: only these take prebuilt parameters (a tool of another source never does). */
const coreDefinitions = new WeakSet<ToolDefinition>();

/** The built-in tools, read-only ones first. */
export function createCoreTools(opts: CoreToolsOptions = {}): ToolDefinition[] {
  const tools = [
    readFileTool,
    createListFilesTool({ rgPath: opts.rgPath }),
    createGrepTool({ rgPath: opts.rgPath }),
    writeFileTool,
    editFileTool,
    deleteFileTool,
    createRunCommandTool({ commandTimeoutMs: opts.commandTimeoutMs }),
  ] as unknown as ToolDefinition[];
  for (const tool of tools) coreDefinitions.add(tool);
  return tools;
}

/** Specs already made: a definition's schema never changes, and turning it into JSON Schema costs ~0.3 ms per tool per run. */
const specs = new WeakMap<ToolDefinition, ChatToolSpec>();

/** The tool as the model sees it: name, description and the JSON schema of its input (no `$schema` noise). */
export function toChatToolSpec(tool: ToolDefinition): ChatToolSpec {
  let spec = specs.get(tool);
  if (!spec) {
    const parameters = (coreDefinitions.has(tool) ? prebuiltParametersOf(tool.name) : undefined) ?? jsonSchemaOf(tool);
    spec = { name: tool.name, description: tool.description, parameters };
    specs.set(tool, spec);
  }
  return spec;
}

function prebuiltParametersOf(name: string): Record<string, unknown> | undefined {
  if (typeof __AGENTCLI_CORE_TOOL_PARAMETERS__ !== 'string') return undefined;
  prebuiltParameters ??= JSON.parse(__AGENTCLI_CORE_TOOL_PARAMETERS__) as Record<string, Record<string, unknown>>;
  return prebuiltParameters[name];
}

function jsonSchemaOf(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  return parameters;
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

/** The permission rule tool that covers each built-in tool. */
const BUILTIN_RULE_TOOLS: Readonly<Record<string, string>> = {
  read_file: 'Read',
  list_files: 'Read',
  grep: 'Read',
  write_file: 'Write',
  edit_file: 'Write',
  delete_file: 'Write',
  run_command: 'Bash',
};

export interface ToolsRegistrySources {
  core: ToolDefinition[];
  editor: ChatToolSpec[];
  mcp: Array<Omit<ToolRegistryEntry, 'source' | 'readOnly'>>;
  planMode: boolean;
  /** Restricted mode denies every tool that is not read-only. */
  restricted: boolean;
}

/** Every tool the model can be offered (`getToolsRegistry`): built-in, editor and MCP tools, enabled or not and why. */
export function buildToolsRegistry(src: ToolsRegistrySources): ToolRegistryEntry[] {
  const offReason = src.planMode
    ? 'plan mode: only read-only tools run until it is turned off'
    : src.restricted
      ? 'restricted mode: no writes, no shell and no MCP tools'
      : undefined;
  const core = src.core.map((tool): ToolRegistryEntry => {
    const spec = toChatToolSpec(tool);
    const off = offReason !== undefined && !tool.readOnly;
    return {
      name: tool.name,
      source: 'builtin',
      description: tool.description,
      inputSchema: spec.parameters,
      permissionRule: BUILTIN_RULE_TOOLS[tool.name] ?? tool.name,
      readOnly: tool.readOnly,
      enabled: !off,
      ...(off ? { disabledReason: offReason } : {}),
    };
  });
  const editor = src.editor.map(
    (spec): ToolRegistryEntry => ({
      name: spec.name,
      source: 'editor',
      description: spec.description,
      inputSchema: spec.parameters,
      permissionRule: spec.name,
      readOnly: true,
      enabled: true,
    }),
  );
  const mcp = src.mcp.map((entry): ToolRegistryEntry => {
    const off = offReason !== undefined && entry.enabled;
    return { ...entry, source: 'mcp', readOnly: false, ...(off ? { enabled: false, disabledReason: offReason } : {}) };
  });
  return [...core, ...editor, ...mcp];
}
