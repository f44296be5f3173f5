/**
 * A saved session (`getSession`) as transcript items: prompts (with the file/selection context they carried), answers,
 * tool calls with their results (failed ones from the session's `tool_error` records, cancelled ones from the "not run"
 * results), errors where they happened (with the fix they named), a compaction summary as a notice, each decided change
 * batch where it was decided (files, results, undo results), and an undecided change batch as a pending card. Pure: no
 * DOM, no vscode.
 */
import { EventErrorCodes } from '../../../protocol/constants';
import type { ResultOf } from '../../../protocol/methods';
import type { HistoryMessage } from '../../../protocol/records';
import type { ContextChip, ItemOf, TranscriptItem } from '../transcriptItems';
import { MAX_TOOL_OUTPUT } from './transcriptModel';
import { appendBounded, summarizeToolArgs } from './argsSummary';
import { applyBatchResult, createTranscript, itemIds, mergePending, toBatchFiles } from './transcriptReducer';

export type SavedSession = Pick<ResultOf<'getSession'>, 'messages' | 'errors' | 'pendingBatch' | 'shown'> & Partial<Pick<ResultOf<'getSession'>, 'decidedBatches'>>;
type DecidedBatch = NonNullable<SavedSession['decidedBatches']>[number];

/** The runtime's first line of a compaction summary (context-compaction.ts); the reply after it is not shown. */
const SUMMARY_PREFIX = 'Summary of the earlier conversation';
/** Tool results the runtime writes for calls that never ran (an abort, a killed runtime). */
const NOT_RUN = /^(not run: |aborted by the user$)/;
/** One context block the runtime puts before a prompt: `<file path="a.ts">\n…\n</file>` or `<selection path="a.ts:3-9"/>`. */
const CONTEXT_BLOCK = /^<(file|selection) path="([^"]*)"(?:\/>|>\n([\s\S]*?)\n<\/\1>)\n/;

/** Splits a saved user message into the prompt text and the context chips it was sent with. */
export function parseUserMessage(content: string, idPrefix: string): { text: string; context: ContextChip[] } {
  const context: ContextChip[] = [];
  let rest = content;
  for (let m = CONTEXT_BLOCK.exec(rest); m !== null; m = CONTEXT_BLOCK.exec(rest)) {
    const [whole, kind, where = '', text] = m;
    const lines = /^(.*):(\d+)(?:-(\d+))?$/.exec(where);
    const chip: ContextChip = { id: `${idPrefix}-ctx${context.length}`, kind: kind === 'selection' ? 'selection' : 'file', path: lines?.[1] ?? where };
    if (lines?.[2] !== undefined) chip.startLine = Number(lines[2]);
    if (lines?.[3] !== undefined) chip.endLine = Number(lines[3]);
    if (text !== undefined) chip.text = text;
    context.push(chip);
    rest = rest.slice(whole.length);
  }
  if (context.length === 0) return { text: content, context };
  return { text: rest.startsWith('\n') ? rest.slice(1) : rest, context };
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const knownCode = (code: string): ItemOf<'error'>['code'] => ((EventErrorCodes as readonly string[]).includes(code) ? (code as ItemOf<'error'>['code']) : 'internal');

/** Where each error or decided batch goes: before message `afterShown` of `shown` (clamped; older runtimes without it: at the end). */
function byPosition<T extends { afterMessages?: number; afterShown?: number }>(list: readonly T[], session: SavedSession, messages: HistoryMessage[]): Map<number, T[]> {
  const at = new Map<number, T[]>();
  for (const e of list) {
    const pos = Math.min((session.shown ? e.afterShown : e.afterMessages) ?? messages.length, messages.length);
    at.set(pos, [...(at.get(pos) ?? []), e]);
  }
  return at;
}

/** A decided batch is the run's before it: that run's prompt (by message index) takes the batch's run id, so its file tools link to the card. */
function batchRuns(decided: Map<number, DecidedBatch[]>, messages: HistoryMessage[]): Map<number, string> {
  const runs = new Map<number, string>();
  for (const [pos, list] of decided) {
    let prompt = pos - 1;
    while (prompt >= 0 && messages[prompt]?.role !== 'user') prompt--;
    const batch = list[0];
    if (prompt >= 0 && batch && !runs.has(prompt)) runs.set(prompt, batch.runId);
  }
  return runs;
}

function decidedCard(b: DecidedBatch): ItemOf<'batch'> {
  const { batchId, runId, files, results, undoResults } = b;
  return { kind: 'batch', id: itemIds.batch(batchId), batchId, runId, status: 'decided', files, results, ...(undoResults ? { undoResults } : {}) };
}

/** The transcript items of a saved session, in order. */
export function transcriptFromSession(session: SavedSession): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  const tools = new Map<string, ItemOf<'tool'>>();
  // What the conversation showed (compacted messages included); an older runtime gives only what the model is sent.
  const messages = session.shown ?? session.messages;
  const errors = byPosition(session.errors, session, messages);
  const decided = byPosition(session.decidedBatches ?? [], session, messages);
  const runOfBatch = batchRuns(decided, messages);
  const userCount = messages.filter((m) => m.role === 'user').length;
  let runs = 0;
  let runId = 'saved-run-0';
  let afterSummary = false;
  // A failed tool shows on its card, as it did live: named by its call id (older files: the tool result next in line).
  const failed = new Map(session.errors.flatMap((e) => (e.code === 'tool_error' && e.toolCallId !== undefined ? [[e.toolCallId, e.error] as const] : [])));
  const addErrors = (pos: number, next: HistoryMessage | undefined) => {
    for (const e of errors.get(pos) ?? []) {
      if (e.code === 'tool_error' && e.toolCallId !== undefined) continue;
      const card = e.code === 'tool_error' && next?.role === 'tool' ? tools.get(next.toolCallId ?? '') : undefined;
      if (card) card.error = e.error;
      else if (e.code !== 'tool_error') {
        const fixing = { ...(e.remedy !== undefined ? { remedy: e.remedy } : {}), ...(e.fix ? { fix: e.fix } : {}) };
        items.push({ kind: 'error', id: `err:saved-${pos}-${items.length}`, code: knownCode(e.code), message: e.error, ...fixing, runId: e.runId ?? runId });
      }
    }
    for (const b of decided.get(pos) ?? []) {
      if (!items.some((i) => i.kind === 'batch' && i.batchId === b.batchId)) items.push(decidedCard(b));
    }
  };
  messages.forEach((m, i) => {
    addErrors(i, m);
    if (m.role === 'user') {
      runs++;
      // The last run keeps the pending batch's run id, so its file tools and the batch card stay linked.
      runId = runOfBatch.get(i) ?? (runs === userCount && session.pendingBatch ? session.pendingBatch.runId : `saved-run-${runs}`);
      if (m.content.startsWith(SUMMARY_PREFIX)) {
        items.push({ kind: 'notice', id: `notice:saved-${i}`, runId, text: 'Earlier messages were summarised to fit the context window.' });
        afterSummary = true;
        return;
      }
      const { text, context } = parseUserMessage(m.content, `saved-${i}`);
      items.push({ kind: 'user', id: `user:saved-${i}`, text, context, runId });
    } else if (m.role === 'assistant') {
      const wasSummaryReply = afterSummary && !m.toolCalls?.length;
      afterSummary = false;
      if (wasSummaryReply) return;
      if (m.content !== '') items.push({ kind: 'assistant', id: itemIds.assistant(`saved-${i}`), messageId: `saved-${i}`, runId, text: m.content, streaming: false });
      for (const call of m.toolCalls ?? []) {
        const args = parseArgs(call.arguments);
        const path = (args as { path?: unknown } | null)?.path;
        const tool: ItemOf<'tool'> = {
          kind: 'tool', id: itemIds.tool(call.id), toolCallId: call.id, runId, toolName: call.name,
          argsSummary: summarizeToolArgs(args), output: '', outputTruncated: false, status: 'cancelled',
          ...(typeof path === 'string' && path !== '' ? { path } : {}),
        };
        if (tools.has(call.id)) continue; // a repeated id would break lookups: keep the first
        tools.set(call.id, tool);
        items.push(tool);
      }
    } else if (m.role === 'tool') {
      const tool = tools.get(m.toolCallId ?? '');
      if (!tool) return;
      const error = failed.get(tool.toolCallId);
      if (error !== undefined) tool.error = error;
      const bounded = appendBounded('', m.content, MAX_TOOL_OUTPUT);
      tool.output = bounded.text;
      tool.outputTruncated = bounded.truncated;
      tool.status = tool.error !== undefined ? 'failure' : NOT_RUN.test(m.content) ? 'cancelled' : 'success';
    }
  });
  addErrors(messages.length, undefined);
  const model = createTranscript(items);
  for (const list of decided.values()) for (const b of list) applyBatchResult(model, b.batchId, b.results); // the tool cards say applied / rejected
  if (session.pendingBatch) {
    const b = session.pendingBatch;
    mergePending(model, { permissions: [], directories: [], batch: { batchId: b.id, runId: b.runId, status: b.status, files: toBatchFiles(b) } });
  }
  return model.items;
}
