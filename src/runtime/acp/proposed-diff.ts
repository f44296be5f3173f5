/**
 * The change a write or edit call would make, for the permission question (a client shows it as a diff before the
 * person answers). A preview only: the tool itself decides what is written, and the completed call carries the diff
 * of what was.
 */
import path from 'node:path';
import type { Diff } from '@agentclientprotocol/sdk';
import type { HistoryMessage } from '../../protocol';

/** The arguments the model gave a tool call, from the conversation (the assistant message is saved before its calls run). */
export function callArguments(history: readonly HistoryMessage[], toolCallId: string): unknown {
  for (let i = history.length - 1; i >= 0; i--) {
    const call = history[i]!.toolCalls?.find((c) => c.id === toolCallId);
    if (!call) continue;
    try {
      return JSON.parse(call.arguments);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const str = (v: unknown): v is string => typeof v === 'string';

export async function proposedDiff(
  tool: string,
  args: unknown,
  cwd: string,
  readText: (absPath: string) => Promise<string | null>,
): Promise<Diff | undefined> {
  if (args === null || typeof args !== 'object') return undefined;
  const a = args as Record<string, unknown>;
  if (!str(a.path) || a.path === '') return undefined;
  const file = path.resolve(cwd, a.path);
  const rel = path.relative(cwd, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined; // nothing outside the workspace is read before approval
  if (tool === 'write_file' && str(a.content)) {
    return { path: file, oldText: await readText(file).catch(() => null), newText: a.content };
  }
  if (tool === 'edit_file' && str(a.old_text) && str(a.new_text) && a.old_text !== '') {
    const current = await readText(file).catch(() => null);
    if (current === null || !current.includes(a.old_text)) return undefined;
    const newText = a.replace_all === true ? current.split(a.old_text).join(a.new_text) : current.replace(a.old_text, () => a.new_text as string);
    return { path: file, oldText: current, newText };
  }
  return undefined;
}
