/**
 * Links between transcript items that belong to one tool call or one run: a resolved permission/directory answer moves
 * onto its tool card, a batch card follows the run's last item, and file tool cards show their batch fate.
 * Pure (no DOM); used by transcriptReducer.ts.
 */
import type { ItemOf, TranscriptItem } from '../transcriptItems';
import type { TranscriptModel } from './transcriptModel';

type ToolItem = ItemOf<'tool'>;
type Decision = NonNullable<ToolItem['decisions']>[number];

/** Tools that write files: in batch mode they only propose a change. */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file', 'delete_file']);

/** The error text the runtime gives a tool call stopped by the user (tool-executor.ts). */
const ABORTED_ERROR = 'aborted by the user';

function reindex(model: TranscriptModel, from: number): void {
  for (let i = from; i < model.items.length; i++) {
    const item = model.items[i];
    if (item !== undefined) model.index.set(item.id, i);
  }
}

function removeAt(model: TranscriptModel, i: number): void {
  const [gone] = model.items.splice(i, 1);
  if (gone !== undefined) model.index.delete(gone.id);
  reindex(model, i);
}

function decisionOf(item: ItemOf<'permission'> | ItemOf<'directory'>): Decision | undefined {
  if (item.status === 'pending') return undefined;
  if (item.kind === 'directory') return { kind: 'directory', outcome: item.status, path: item.path };
  return {
    kind: 'permission',
    outcome: item.status,
    ...(item.scope !== undefined ? { scope: item.scope } : {}),
    ...(item.alternative !== undefined ? { alternative: item.alternative } : {}),
  };
}

function isResolvedRequestFor(item: TranscriptItem | undefined, toolCallId: string): item is ItemOf<'permission'> | ItemOf<'directory'> {
  return (item?.kind === 'permission' || item?.kind === 'directory') && item.toolCallId === toolCallId && item.status !== 'pending';
}

/**
 * Put a new tool item in the transcript. Resolved requests of the same call are folded into it: the card takes the
 * place of the first one and the request lines go. Returns true when items moved (positions changed).
 */
export function placeToolItem(model: TranscriptModel, tool: ToolItem): boolean {
  const decisions: Decision[] = [];
  let first = -1;
  for (let i = model.items.length - 1; i >= 0; i--) {
    const item = model.items[i];
    if (!isResolvedRequestFor(item, tool.toolCallId)) continue;
    const d = decisionOf(item);
    if (d !== undefined) decisions.unshift(d);
    if (first !== -1) removeAt(model, first);
    first = i;
  }
  if (first === -1) {
    model.index.set(tool.id, model.items.length);
    model.items.push(tool);
    return false;
  }
  const replaced = model.items[first];
  if (replaced !== undefined) model.index.delete(replaced.id);
  model.items[first] = tool;
  model.index.set(tool.id, first);
  tool.decisions = [...(tool.decisions ?? []), ...decisions];
  return true;
}

/** A request resolved after its tool card exists: move the answer onto the card. Returns the card, or undefined. */
export function foldIntoToolCard(model: TranscriptModel, request: ItemOf<'permission'> | ItemOf<'directory'>): ToolItem | undefined {
  if (request.toolCallId === undefined) return undefined;
  const i = model.index.get(`tool:${request.toolCallId}`);
  const tool = i === undefined ? undefined : model.items[i];
  const d = decisionOf(request);
  if (tool?.kind !== 'tool' || d === undefined) return undefined;
  tool.decisions = [...(tool.decisions ?? []), d];
  const at = model.index.get(request.id);
  if (at !== undefined) removeAt(model, at);
  return tool;
}

/** A failed call that was stopped (its answer was cancelled, or the runtime says the user aborted it) is cancelled. */
export function wasStopped(tool: ToolItem): boolean {
  return tool.error === ABORTED_ERROR || (tool.decisions ?? []).some((d) => d.outcome === 'cancelled');
}

/** Move an item right after the last other item of its run. Returns true when it moved. */
export function moveAfterRun(model: TranscriptModel, id: string, runId: string): boolean {
  const from = model.index.get(id);
  if (from === undefined) return false;
  let last = -1;
  for (let i = model.items.length - 1; i >= 0; i--) {
    if (i !== from && model.items[i]?.runId === runId) {
      last = i;
      break;
    }
  }
  if (last < from) return false;
  const [item] = model.items.splice(from, 1);
  if (item === undefined) return false;
  model.items.splice(last, 0, item); // `last` shifted down by one with the removal: this is right after it
  reindex(model, from);
  return true;
}

function normalize(p: string): string {
  return p.replace(/\\/g, '/').replace(/^\.\//, '');
}

/** A tool's path argument (relative or absolute) names the batch file (workspace-relative). */
export function samePath(toolPath: string, batchPath: string): boolean {
  const a = normalize(toolPath);
  const b = normalize(batchPath);
  return a === b || a.endsWith(`/${b}`);
}

/** Set `change` on the run's file tool cards from its batch; returns the ids of cards that changed. */
export function syncToolChanges(model: TranscriptModel, runId: string): string[] {
  const batch = model.items.find((i): i is ItemOf<'batch'> => i.kind === 'batch' && i.runId === runId);
  if (batch === undefined) return [];
  const ids: string[] = [];
  for (const item of model.items) {
    if (item.kind !== 'tool' || item.runId !== runId || !FILE_TOOLS.has(item.toolName) || item.path === undefined) continue;
    const path = item.path;
    let next: ToolItem['change'];
    if (item.status !== 'failure' && item.status !== 'cancelled') {
      const file = batch.files.find((f) => samePath(path, f.path));
      const result = batch.results?.find((r) => samePath(path, r.path));
      next = result !== undefined ? result.status : file !== undefined ? 'proposed' : undefined;
    }
    if (next === item.change) continue;
    if (next === undefined) delete item.change;
    else item.change = next;
    ids.push(item.id);
  }
  return ids;
}
