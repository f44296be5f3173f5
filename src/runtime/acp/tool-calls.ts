/**
 * How our tool calls look to an ACP client: a title a person reads, the ACP tool kind (the icon and grouping a client
 * shows), and the file locations the client can follow.
 */
import path from 'node:path';
import type { ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  list_files: 'read',
  grep: 'search',
  write_file: 'edit',
  edit_file: 'edit',
  delete_file: 'delete',
  run_command: 'execute',
};

export function toolKind(tool: string): ToolKind {
  return KINDS[tool] ?? 'other';
}

function argRecord(args: unknown): Record<string, unknown> {
  return args !== null && typeof args === 'object' ? (args as Record<string, unknown>) : {};
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The first line of a command, shortened: a title is one line. */
function oneLine(text: string, max = 120): string {
  const first = text.split('\n')[0] ?? '';
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return text.includes('\n') ? `${cut} …` : cut;
}

export function toolTitle(tool: string, args: unknown): string {
  const a = argRecord(args);
  const p = str(a.path);
  switch (tool) {
    case 'read_file':
      return p ? `Read ${p}` : 'Read a file';
    case 'list_files':
      return `List ${p ?? '.'}`;
    case 'grep':
      return str(a.pattern) ? `Search for ${oneLine(String(a.pattern), 80)}${p ? ` in ${p}` : ''}` : 'Search';
    case 'write_file':
      return p ? `Write ${p}` : 'Write a file';
    case 'edit_file':
      return p ? `Edit ${p}` : 'Edit a file';
    case 'delete_file':
      return p ? `Delete ${p}` : 'Delete a file';
    case 'run_command':
      return str(a.command) ? `Run ${oneLine(String(a.command))}` : 'Run a command';
    default:
      return tool;
  }
}

/** The absolute file a call is about (ACP locations are absolute), when its arguments name one. */
export function toolLocations(cwd: string, args: unknown): ToolCallLocation[] {
  const p = str(argRecord(args).path);
  return p ? [{ path: path.resolve(cwd, p) }] : [];
}

/** The most tool output one update carries: a client shows the end of a long output. */
export const MAX_SHOWN_OUTPUT_CHARS = 32 * 1024;

/** The end of an output; `dropped`: characters before `text` already left out. */
export function shownOutput(text: string, dropped = 0): string {
  const hidden = dropped + Math.max(0, text.length - MAX_SHOWN_OUTPUT_CHARS);
  if (hidden === 0) return text;
  return `[… ${hidden} earlier characters not shown]\n${text.slice(-MAX_SHOWN_OUTPUT_CHARS)}`;
}
