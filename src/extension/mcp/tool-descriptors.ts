/**
 * The editor-hosted tools offered to the model (registered with `setEditorMcpTools`; the model sees `editor_<name>`),
 * their JSON input schemas, and the argument checks. Positions are 1-based, as people and compilers write them.
 * Pure: no `vscode` import.
 */

export interface EditorToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

const path = { type: 'string', description: 'File path, relative to the workspace root or absolute.' };
const position = {
  path,
  line: { type: 'integer', minimum: 1, description: '1-based line number.' },
  column: { type: 'integer', minimum: 1, description: '1-based column of the symbol (any character inside it).' },
};

export const EDITOR_TOOLS: readonly EditorToolDescriptor[] = [
  {
    name: 'diagnostics',
    description:
      'Errors and warnings the editor\'s language services report (compiler, linter). Give `path` for one file; omit it for the whole workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { ...path, description: 'One file; omit for every file with problems.' },
        minSeverity: { type: 'string', enum: ['error', 'warning', 'info', 'hint'], description: 'Lowest severity to include (default warning).' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'active_editor',
    description: 'The file the user is looking at: path, language, the selection (with its text) and the visible line range.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'open_editors',
    description: 'The files open in editor tabs, marking the active one and those with unsaved changes.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  },
  {
    name: 'go_to_definition',
    description: 'Where the symbol at a position is defined, from the editor\'s language services.',
    inputSchema: { type: 'object', properties: position, required: ['path', 'line', 'column'], additionalProperties: false },
  },
  {
    name: 'find_references',
    description: 'Every reference to the symbol at a position, from the editor\'s language services.',
    inputSchema: { type: 'object', properties: position, required: ['path', 'line', 'column'], additionalProperties: false },
  },
  {
    name: 'workspace_symbols',
    description: 'Symbols (classes, functions, variables…) whose names match a query, across the workspace.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1, description: 'Part of the symbol name.' } },
      required: ['query'],
      additionalProperties: false,
    },
  },
  {
    name: 'file_language',
    description: 'The language the editor assigns to a file (its language id, e.g. typescript, python).',
    inputSchema: { type: 'object', properties: { path }, required: ['path'], additionalProperties: false },
  },
];

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export const SEVERITY_ORDER: readonly Severity[] = ['error', 'warning', 'info', 'hint'];

export class ToolArgumentError extends Error {}

function obj(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw new ToolArgumentError('arguments must be a JSON object');
  return args as Record<string, unknown>;
}

export function stringArg(args: unknown, name: string, required: true): string;
export function stringArg(args: unknown, name: string, required: false): string | undefined;
export function stringArg(args: unknown, name: string, required: boolean): string | undefined {
  const v = obj(args)[name];
  if (v === undefined || v === '') {
    if (required) throw new ToolArgumentError(`"${name}" is required (a non-empty string)`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ToolArgumentError(`"${name}" must be a string`);
  return v;
}

export function positionArgs(args: unknown): { path: string; line: number; column: number } {
  const o = obj(args);
  const path = stringArg(o, 'path', true);
  const int = (name: string) => {
    const v = o[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ToolArgumentError(`"${name}" must be an integer of 1 or more (1-based)`);
    return v;
  };
  return { path, line: int('line'), column: int('column') };
}

export function severityArg(args: unknown): Severity {
  const v = stringArg(args, 'minSeverity', false);
  if (v === undefined) return 'warning';
  if (!(SEVERITY_ORDER as readonly string[]).includes(v)) throw new ToolArgumentError(`"minSeverity" must be one of ${SEVERITY_ORDER.join(', ')}`);
  return v as Severity;
}

/** Accepts the bare name or the model-facing `editor_<name>`. */
export function findTool(name: string): EditorToolDescriptor | undefined {
  return EDITOR_TOOLS.find((t) => t.name === name || `editor_${t.name}` === name);
}

/** Plain shapes for the compact text results (built from vscode objects by editor-tools.ts). */
export interface PlainDiagnostic {
  path: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
  source?: string;
  code?: string;
}

export const MAX_RESULT_LINES = 200;

export function formatDiagnostics(diags: PlainDiagnostic[], scope: string): string {
  if (diags.length === 0) return `No problems reported for ${scope}.`;
  const sorted = [...diags].sort(
    (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.path.localeCompare(b.path) || a.line - b.line,
  );
  const lines = sorted
    .slice(0, MAX_RESULT_LINES)
    .map((d) => `${d.path}:${d.line}:${d.column} ${d.severity}: ${d.message.replace(/\s*\n\s*/g, ' ')}${d.source ? ` [${d.source}${d.code ? ` ${d.code}` : ''}]` : ''}`);
  const counts = SEVERITY_ORDER.map((s) => [s, diags.filter((d) => d.severity === s).length] as const).filter(([, n]) => n > 0);
  const head = `${diags.length} problem(s) for ${scope}: ${counts.map(([s, n]) => `${n} ${s}`).join(', ')}`;
  const more = sorted.length > MAX_RESULT_LINES ? [`… ${sorted.length - MAX_RESULT_LINES} more not shown`] : [];
  return [head, ...lines, ...more].join('\n');
}

export interface PlainLocation {
  path: string;
  line: number;
  column: number;
  /** The source line, trimmed, when known. */
  preview?: string;
}

export function formatLocations(locs: PlainLocation[], what: string): string {
  if (locs.length === 0) return `No ${what} found.`;
  const lines = locs.slice(0, MAX_RESULT_LINES).map((l) => `${l.path}:${l.line}:${l.column}${l.preview ? `  ${l.preview}` : ''}`);
  const more = locs.length > MAX_RESULT_LINES ? [`… ${locs.length - MAX_RESULT_LINES} more not shown`] : [];
  return [`${locs.length} ${what}:`, ...lines, ...more].join('\n');
}
