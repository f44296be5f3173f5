/**
 * Builds and updates the transcript from runtime events. Pure logic (no DOM, no vscode): the webview renders from it
 * and the extension may run the same reducer to keep the snapshot it sends in `init`.
 * Every mutation returns the ids of the items it touched so the view re-renders only those.
 */
import type { AgentEvent, Change, ChangeBatch, ChangeResult, EventOf, UndoFileResult } from '../../../protocol';
import type { BatchSummary, ContextChip, ItemOf, PendingDirectoryInfo, PendingPermissionInfo, ProposedPlanInfo, TranscriptItem } from '../messages';
import { appendBounded, summarizeToolArgs } from './argsSummary';
import { answerPlan, mergeProposedPlan, onPlanProposed, onPlanUpdate, onReflection, settlePlans } from './planItems';
import { MAX_TOOL_OUTPUT, type TranscriptModel } from './transcriptModel';
import { isUnshownEvent } from './unshownEvents';
import { FILE_TOOLS, foldIntoToolCard, moveAfterRun, placeToolItem, syncToolChanges, wasStopped } from './toolLinks';

export type { TranscriptModel } from './transcriptModel';

export interface Changes {
  /** The whole list was replaced: re-render everything. */
  reset: boolean;
  /** Items added or changed. */
  ids: string[];
  /** Items moved or were removed: positions changed (the view re-maps what it measured by item id). */
  reordered?: boolean;
  /** This many older items were put before the list (the view keeps what the user reads in place). */
  prepended?: number;
}

const none = (): Changes => ({ reset: false, ids: [] });
const touched = (...ids: string[]): Changes => ({ reset: false, ids });

export function createTranscript(items: readonly TranscriptItem[] = []): TranscriptModel {
  const model: TranscriptModel = { items: [], index: new Map(), activeRunId: undefined, nextLocalId: 1 };
  for (const item of items) {
    if (model.index.has(item.id)) continue; // a duplicated id in a snapshot would break lookups: keep the first
    model.index.set(item.id, model.items.length);
    model.items.push(item);
  }
  return model;
}

export function findItem<K extends TranscriptItem['kind']>(model: TranscriptModel, id: string, kind: K): ItemOf<K> | undefined {
  const i = model.index.get(id);
  const item = i === undefined ? undefined : model.items[i];
  return item?.kind === kind ? (item as ItemOf<K>) : undefined;
}

function append(model: TranscriptModel, item: TranscriptItem): Changes {
  const existing = model.index.get(item.id);
  if (existing !== undefined) {
    model.items[existing] = item;
  } else {
    model.index.set(item.id, model.items.length);
    model.items.push(item);
  }
  return touched(item.id);
}

function localId(model: TranscriptModel, prefix: string): string {
  return `${prefix}:local-${model.nextLocalId++}`;
}

export const itemIds = {
  assistant: (messageId: string) => `msg:${messageId}`,
  tool: (toolCallId: string) => `tool:${toolCallId}`,
  permission: (requestId: string) => `perm:${requestId}`,
  directory: (requestId: string) => `dir:${requestId}`,
  batch: (batchId: string) => `batch:${batchId}`,
};

/** The user sent a prompt from the panel: show it at once; agent_start binds it to its run. */
export function addUserPrompt(model: TranscriptModel, prompt: { promptId: string; text: string; context: ContextChip[] }): Changes {
  return append(model, { kind: 'user', id: `user:${prompt.promptId}`, promptId: prompt.promptId, text: prompt.text, context: prompt.context });
}

/** The extension did not attach these `@` mentions of the prompt: its chips show them as not attached. */
export function markMentionsRefused(model: TranscriptModel, promptId: string, paths: string[]): Changes {
  const item = findItem(model, `user:${promptId}`, 'user');
  if (item === undefined || paths.length === 0) return none();
  item.refusedMentions = [...new Set([...(item.refusedMentions ?? []), ...paths])];
  return touched(item.id);
}

/** The extension refused the prompt: mark it failed and return its text so the panel can put it back in the box. */
export function markPromptFailed(model: TranscriptModel, promptId: string): { changes: Changes; text: string | undefined } {
  const item = findItem(model, `user:${promptId}`, 'user');
  if (item === undefined || item.runId !== undefined) return { changes: none(), text: undefined };
  item.failed = true;
  return { changes: touched(item.id), text: item.text };
}

export function addError(model: TranscriptModel, error: Pick<ItemOf<'error'>, 'message' | 'remedy' | 'fix' | 'runId'> & { code?: ItemOf<'error'>['code'] }): Changes {
  const last = model.items[model.items.length - 1];
  if (last?.kind === 'error' && last.message === error.message && last.runId === error.runId) return none();
  return append(model, {
    kind: 'error', id: localId(model, 'err'), code: error.code ?? 'extension', message: error.message, remedy: error.remedy,
    ...(error.fix ? { fix: error.fix } : {}), runId: error.runId,
  });
}

const toBatchFile = (c: Change): ItemOf<'batch'>['files'][number] => ({ changeId: c.id, path: c.path, kind: c.kind, additions: c.additions, deletions: c.deletions });

export function toBatchFiles(batch: ChangeBatch): ItemOf<'batch'>['files'] {
  return batch.changes.map(toBatchFile);
}

/** An open batch changed: the event carries only the files it touched, merged here into the card's list. */
function updateBatchFiles(model: TranscriptModel, e: EventOf<'change_batch_updated'>): Changes {
  const removed = new Set(e.removed);
  const held = findItem(model, itemIds.batch(e.batchId), 'batch')?.files ?? [];
  const files = held.filter((f) => !removed.has(f.changeId));
  for (const c of e.changes) {
    const i = files.findIndex((f) => f.changeId === c.id);
    if (i >= 0) files[i] = toBatchFile(c);
    else if (!removed.has(c.id)) files.push(toBatchFile(c));
  }
  return upsertBatch(model, { batchId: e.batchId, runId: e.runId, status: 'open', files });
}

/** Add or update a batch card; an undecided card moves below the run's last item (the tool cards it summarizes). */
function upsertBatch(model: TranscriptModel, summary: BatchSummary): Changes {
  const id = itemIds.batch(summary.batchId);
  const existing = findItem(model, id, 'batch');
  if (existing !== undefined) {
    existing.files = summary.files;
    if (existing.status !== 'decided') existing.status = summary.status;
  } else {
    append(model, { kind: 'batch', id, batchId: summary.batchId, runId: summary.runId, status: summary.status, files: summary.files });
  }
  const item = findItem(model, id, 'batch');
  const moved = item !== undefined && item.status !== 'decided' && moveAfterRun(model, id, item.runId);
  return { reset: false, ids: [id, ...syncToolChanges(model, summary.runId)], reordered: moved };
}

export function applyBatchResult(model: TranscriptModel, batchId: string, results: ChangeResult[]): Changes {
  const item = findItem(model, itemIds.batch(batchId), 'batch');
  if (item === undefined) return none();
  item.status = 'decided';
  item.results = results;
  return touched(item.id, ...syncToolChanges(model, item.runId));
}

/** Files of an applied batch were reverted (`changes_reverted`): the card shows each file's latest undo result. */
function applyUndoResults(model: TranscriptModel, batchId: string, results: UndoFileResult[]): Changes {
  const item = findItem(model, itemIds.batch(batchId), 'batch');
  if (item === undefined) return none();
  const latest = new Map((item.undoResults ?? []).map((r) => [r.changeId, r]));
  for (const r of results) latest.set(r.changeId, r);
  item.undoResults = [...latest.values()];
  return touched(item.id);
}

/** The user answered a proposed plan: the card shows the answer until the runtime's run updates it. */
export function answerPlanItem(model: TranscriptModel, planId: string, decision: 'accept' | 'revise'): Changes {
  return touched(...answerPlan(model, planId, decision).ids);
}

/** A short status line of the extension's own (e.g. why the last chat could not be reopened). */
export function addNotice(model: TranscriptModel, text: string): Changes {
  return append(model, { kind: 'notice', id: localId(model, 'notice'), text });
}

/** The user denied a permission with an alternative: keep the text to show it once the request is resolved. */
export function recordPermissionAlternative(model: TranscriptModel, requestId: string, alternative: string): Changes {
  const item = findItem(model, itemIds.permission(requestId), 'permission');
  if (item === undefined) return none();
  item.alternative = alternative;
  return touched(item.id);
}

/** Settle everything a finished (or aborted) run left open: streaming text, running tools, pending prompts. */
function settleRun(model: TranscriptModel, runId: string): string[] {
  const ids: string[] = [];
  for (const item of model.items) {
    if (item.kind === 'assistant' && item.runId === runId && item.streaming) item.streaming = false;
    else if (item.kind === 'tool' && item.runId === runId && item.status === 'running') item.status = 'cancelled';
    else if ((item.kind === 'permission' || item.kind === 'directory') && item.runId === runId && item.status === 'pending') item.status = 'cancelled';
    else continue;
    ids.push(item.id);
  }
  return ids;
}

function onAgentStart(model: TranscriptModel, e: EventOf<'agent_start'>): Changes {
  model.activeRunId = e.runId;
  for (let i = model.items.length - 1; i >= 0; i--) {
    const item = model.items[i];
    if (item?.kind !== 'user') continue;
    if (item.runId === undefined && item.failed !== true) {
      // The prompt shown at Enter is this run's: nothing to redraw (the view shows no run ids), so the run's start
      // costs the page no frame before the answer's first text.
      item.runId = e.runId;
      return none();
    }
    break;
  }
  return append(model, { kind: 'user', id: `user:${e.runId}`, text: e.prompt, context: [], runId: e.runId });
}

function onAgentEnd(model: TranscriptModel, e: EventOf<'agent_end'>): Changes {
  if (model.activeRunId === e.runId) model.activeRunId = undefined;
  const ids = [...settleRun(model, e.runId), ...settlePlans(model, e.runId)];
  // A stop that cancelled a tool call shows on that card: no second line for the same event.
  const last = model.items[model.items.length - 1];
  const shownOnCard = last?.kind === 'tool' && last.runId === e.runId && last.status === 'cancelled';
  if (e.status === 'aborted') {
    if (!shownOnCard) ids.push(...append(model, { kind: 'notice', id: `end:${e.runId}`, runId: e.runId, text: 'Stopped.' }).ids);
  } else if (e.status === 'stopped' && e.stoppedReason !== 'plan_proposed') {
    // (a run that proposed a plan ends here by design: the plan card says what happens next)
    const why = e.stoppedReason === undefined ? '' : ` (${e.stoppedReason.replace(/_/g, ' ')})`;
    ids.push(...append(model, { kind: 'notice', id: `end:${e.runId}`, runId: e.runId, text: `Run stopped${why}.` }).ids);
  } else if (e.status === 'error' && e.error !== undefined) {
    const alreadyShown = model.items.some((i) => i.kind === 'error' && i.runId === e.runId);
    if (!alreadyShown) ids.push(...addError(model, { message: e.error.message, runId: e.runId, code: 'internal' }).ids);
  }
  return touched(...ids);
}

function onMessageText(model: TranscriptModel, e: { runId: string; messageId: string }, text: string, final: boolean): Changes {
  const id = itemIds.assistant(e.messageId);
  const item = findItem(model, id, 'assistant');
  if (item === undefined) {
    // Created lazily: an assistant message that only calls tools has no text and gets no bubble.
    if (text === '') return none();
    return append(model, { kind: 'assistant', id, messageId: e.messageId, runId: e.runId, text, streaming: !final });
  }
  item.text = final ? text : item.text + text;
  item.streaming = !final;
  return touched(id);
}

function onToolEvent(model: TranscriptModel, e: EventOf<'tool_start' | 'tool_update' | 'tool_end'>): Changes {
  const id = itemIds.tool(e.toolCallId);
  let item = findItem(model, id, 'tool');
  let reordered = false;
  if (item === undefined) {
    item = { kind: 'tool', id, toolCallId: e.toolCallId, runId: e.runId, toolName: e.toolName, argsSummary: '', output: '', outputTruncated: false, status: 'running' };
    reordered = placeToolItem(model, item);
  }
  if (e.type === 'tool_start') {
    item.argsSummary = summarizeToolArgs(e.args);
    const path = (e.args as { path?: unknown } | null | undefined)?.path;
    if (typeof path === 'string' && path !== '') item.path = path;
  } else if (e.type === 'tool_update') {
    const next = appendBounded(item.output, e.output, MAX_TOOL_OUTPUT);
    item.output = next.text;
    item.outputTruncated = item.outputTruncated || next.truncated;
  } else {
    item.durationMs = e.durationMs;
    if (e.error !== undefined) item.error = e.error;
    item.status = e.success ? 'success' : wasStopped(item) ? 'cancelled' : 'failure';
    if (item.output === '' && e.output !== undefined) {
      const bounded = appendBounded('', e.output, MAX_TOOL_OUTPUT);
      item.output = bounded.text;
      item.outputTruncated = bounded.truncated;
    }
  }
  const linked = e.type === 'tool_end' && FILE_TOOLS.has(item.toolName) ? syncToolChanges(model, e.runId).filter((x) => x !== id) : [];
  return { reset: false, ids: [id, ...linked], reordered };
}

function resolveRequest(model: TranscriptModel, id: string, kind: 'permission' | 'directory', outcome: 'allowed' | 'denied' | 'cancelled', scope?: string): Changes {
  const item = findItem(model, id, kind);
  if (item === undefined) return none();
  item.status = outcome;
  if (item.kind === 'permission' && scope !== undefined) item.scope = scope;
  const card = foldIntoToolCard(model, item);
  return card === undefined ? touched(id) : { reset: false, ids: [card.id], reordered: true };
}

export function applyEvent(model: TranscriptModel, e: AgentEvent): Changes {
  // turn_*, step_end, mcp_invocation, file_modified, session_end, auto-mode and the like: nothing to show.
  if (isUnshownEvent(e)) return none();
  switch (e.type) {
    case 'agent_start':
      return onAgentStart(model, e);
    case 'agent_end':
      return onAgentEnd(model, e);
    case 'message_update':
      return onMessageText(model, e, e.delta, false);
    case 'message_end':
      return onMessageText(model, e, e.content, true);
    case 'tool_start':
    case 'tool_update':
    case 'tool_end':
      return onToolEvent(model, e);
    case 'permission_request':
      return append(model, {
        kind: 'permission', id: itemIds.permission(e.requestId), requestId: e.requestId, runId: e.runId, toolCallId: e.toolCallId, tool: e.tool,
        description: e.description, command: e.command, paths: e.paths, suggestedRules: e.suggestedRules, choices: e.choices, status: 'pending',
      });
    case 'permission_resolved':
      return resolveRequest(model, itemIds.permission(e.requestId), 'permission', e.outcome, e.scope);
    case 'directory_access_request':
      return append(model, {
        kind: 'directory', id: itemIds.directory(e.requestId), requestId: e.requestId, runId: e.runId, toolCallId: e.toolCallId, path: e.path, reason: e.reason, status: 'pending',
      });
    case 'directory_access_resolved':
      return resolveRequest(model, itemIds.directory(e.requestId), 'directory', e.outcome);
    case 'change_batch_updated':
      return updateBatchFiles(model, e);
    case 'change_batch_ready':
      return upsertBatch(model, { batchId: e.batch.id, runId: e.batch.runId, status: e.batch.status, files: toBatchFiles(e.batch) });
    case 'change_batch_decided':
      return applyBatchResult(model, e.batchId, e.results);
    case 'changes_reverted':
      return applyUndoResults(model, e.batchId, e.results);
    case 'error':
      // A failed tool already shows on its card (tool_end success false); a second, loose error line would repeat it.
      if (e.code === 'tool_error') return none();
      return addError(model, { message: e.error, remedy: e.remedy, fix: e.fix, code: e.code, runId: e.runId });
    case 'context_compacted':
      return append(model, {
        kind: 'notice', id: localId(model, 'compacted'), runId: e.runId,
        text: `Earlier messages were summarised to fit the context window (about ${e.tokensBefore.toLocaleString('en-US')} → ${e.tokensAfter.toLocaleString('en-US')} tokens).`,
      });
    case 'plan_proposed':
      return { reset: false, ...onPlanProposed(model, e) };
    case 'plan_update':
      return { reset: false, ...onPlanUpdate(model, e) };
    case 'reflection':
      return { reset: false, ...onReflection(model, e) };
    default:
      // Every event is shown above or listed in unshownEvents.ts: a new event type fails the type check here.
      return e satisfies never;
  }
}

/** Cards for pending requests and a pending batch that an `init` snapshot lists but its items do not contain. */
export function mergePending(
  model: TranscriptModel,
  pending: { permissions: PendingPermissionInfo[]; directories: PendingDirectoryInfo[]; batch: BatchSummary | null; plan?: ProposedPlanInfo | null },
): Changes {
  const ids: string[] = [];
  for (const p of pending.permissions) {
    const id = itemIds.permission(p.requestId);
    if (model.index.has(id)) continue;
    ids.push(...append(model, { kind: 'permission', id, requestId: p.requestId, tool: p.tool, description: p.description, suggestedRules: [], choices: ['once', 'session', 'always', 'deny', 'alternative'], status: 'pending' }).ids);
  }
  for (const d of pending.directories) {
    const id = itemIds.directory(d.requestId);
    if (model.index.has(id)) continue;
    ids.push(...append(model, { kind: 'directory', id, requestId: d.requestId, path: d.path, reason: d.reason, status: 'pending' }).ids);
  }
  if (pending.batch !== null) ids.push(...upsertBatch(model, pending.batch).ids);
  if (pending.plan !== undefined) ids.push(...mergeProposedPlan(model, pending.plan));
  return touched(...ids);
}

/** New chat: the conversation goes, a batch still waiting for a decision stays (the runtime keeps it too). */
export function clearConversation(model: TranscriptModel): Changes {
  const kept = model.items.filter((i) => i.kind === 'batch' && i.status !== 'decided');
  const fresh = createTranscript(kept);
  model.items = fresh.items;
  model.index = fresh.index;
  model.activeRunId = undefined;
  return { reset: true, ids: [] };
}

/** Older items (a page the panel asked for) go before the list; ids already in it are skipped. */
export function prependItems(model: TranscriptModel, older: readonly TranscriptItem[]): Changes {
  const fresh = older.filter((i) => !model.index.has(i.id));
  if (fresh.length === 0) return none();
  const rebuilt = createTranscript([...fresh, ...model.items]);
  model.items = rebuilt.items;
  model.index = rebuilt.index;
  return { reset: false, ids: fresh.map((i) => i.id), reordered: true, prepended: fresh.length };
}

/** Replace everything with a snapshot (the extension's `init` is the truth). */
export function replaceTranscript(model: TranscriptModel, items: readonly TranscriptItem[]): Changes {
  const fresh = createTranscript(items);
  model.items = fresh.items;
  model.index = fresh.index;
  model.activeRunId = undefined;
  return { reset: true, ids: [] };
}
