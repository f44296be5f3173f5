/**
 * Reading saved session files. A torn last line (a write cut short by a killed process: no newline at its end) is
 * skipped and reported, never fatal; any other unreadable line, or a missing meta line, makes the file corrupt.
 */
import fs from 'node:fs';
import type { ErrorFix } from '../../protocol/errors';
import type { HistoryMessage } from '../../protocol/records';
import type { DecidedBatch, UndoFileResult } from '../../protocol/undo';
import { MetaRecord, SessionLine, type SavedBatch } from './records';

export class CorruptSessionError extends Error {
  override name = 'CorruptSessionError';
}

export interface SavedSessionData {
  meta: MetaRecord;
  messages: HistoryMessage[];
  errors: Array<{ at: string; runId?: string; toolCallId?: string; code: string; error: string; remedy?: string; fix?: ErrorFix; afterMessages: number; afterShown: number }>;
  /** The batches decided in the session, where each was decided, with the latest undo result of each file undone since. */
  decided: Array<DecidedBatch & { afterMessages: number; afterShown: number }>;
  /** Every saved message in order, compacted ones included, with each compaction's summary pair where it happened. */
  shown: HistoryMessage[];
  /** The change batch waiting for a decision when the session was last saved. */
  batch: SavedBatch | null;
  /** Paths of pending changes not saved because their contents held a secret. */
  unsavedChanges: string[];
  provider: string;
  model: string;
  updatedAt: string;
  /** Bytes of the file up to the end of its last complete line. */
  validBytes: number;
  /** The torn last line that was skipped, if any: its size in bytes. */
  tornBytes?: number;
}

function parseMeta(text: string, file: string): MetaRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CorruptSessionError(`${file}: the first line is not JSON`);
  }
  const meta = MetaRecord.safeParse(raw);
  if (!meta.success) throw new CorruptSessionError(`${file}: the first line is not a session header`);
  return meta.data;
}

/** An undo's results on the decided batch they belong to: the latest result per file. */
function addUndoResults(decided: SavedSessionData['decided'], reverted: { batchId: string; results: UndoFileResult[] }): void {
  const batch = decided.find((b) => b.batchId === reverted.batchId);
  if (!batch) return;
  const latest = new Map((batch.undoResults ?? []).map((r) => [r.changeId, r]));
  for (const r of reverted.results) latest.set(r.changeId, r);
  batch.undoResults = [...latest.values()];
}

/** Reads a whole session file (for getSession and attach). */
export function readSessionFile(file: string): SavedSessionData {
  const buf = fs.readFileSync(file);
  const stat = fs.statSync(file);
  const lastNewline = buf.lastIndexOf(0x0a);
  const validBytes = lastNewline + 1;
  const body = buf.subarray(0, validBytes).toString('utf8');
  const lines = body.split('\n');
  lines.pop(); // after the last newline
  if (lines.length === 0) throw new CorruptSessionError(`${file}: no complete header line`);
  const meta = parseMeta(lines[0]!, file);
  const data: SavedSessionData = {
    meta,
    messages: [],
    errors: [],
    decided: [],
    shown: [],
    batch: null,
    unsavedChanges: [],
    provider: meta.provider,
    model: meta.model,
    updatedAt: stat.mtime.toISOString(),
    validBytes,
    ...(buf.length > validBytes ? { tornBytes: buf.length - validBytes } : {}),
  };
  for (let i = 1; i < lines.length; i++) {
    let raw: unknown;
    try {
      raw = JSON.parse(lines[i]!);
    } catch {
      throw new CorruptSessionError(`${file}: line ${i + 1} is not JSON`);
    }
    const parsed = SessionLine.safeParse(raw);
    if (!parsed.success) throw new CorruptSessionError(`${file}: line ${i + 1} is not a session record`);
    const line = parsed.data;
    data.provider = line.provider;
    data.model = line.model;
    if (line.type === 'message') {
      data.messages.push(line.message);
      data.shown.push(line.message);
    } else if (line.type === 'compacted') {
      // The summary pair goes before the messages the compaction kept (the current prompt, during a run).
      const at = Math.max(0, data.shown.length - Math.max(0, data.messages.length - line.removed));
      data.shown.splice(at, 0, ...line.messages);
      for (const e of [...data.errors, ...data.decided]) if (e.afterShown > at) e.afterShown += line.messages.length;
      data.messages = [...line.messages, ...data.messages.slice(line.removed)];
    } else if (line.type === 'error') {
      const pos = { afterMessages: data.messages.length, afterShown: data.shown.length };
      const ids = { ...(line.runId ? { runId: line.runId } : {}), ...(line.toolCallId ? { toolCallId: line.toolCallId } : {}) };
      const fixing = { ...(line.remedy !== undefined ? { remedy: line.remedy } : {}), ...(line.fix ? { fix: line.fix } : {}) };
      data.errors.push({ at: line.at, ...ids, code: line.code, error: line.error, ...fixing, ...pos });
    }
    else if (line.type === 'batch') {
      data.batch = line.batch;
      data.unsavedChanges = line.unsaved ?? [];
      if (line.decided) data.decided.push({ ...line.decided, afterMessages: data.messages.length, afterShown: data.shown.length });
      if (line.reverted) addUndoResults(data.decided, line.reverted);
    }
  }
  return data;
}

export interface SessionSummary {
  meta: MetaRecord;
  updatedAt: string;
  mtimeMs: number;
  /** The file's inode (a cache of meta lines tells a replaced file apart). */
  ino: number;
}

const HEAD_BYTES = 8192;

/** The meta line and modification time of a session file (for listing); undefined when unreadable or corrupt. */
export function readSessionHead(file: string): SessionSummary | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    const end = buf.subarray(0, n).indexOf(0x0a);
    if (end < 0) return undefined;
    const meta = parseMeta(buf.subarray(0, end).toString('utf8'), file);
    const stat = fs.fstatSync(fd);
    return { meta, updatedAt: stat.mtime.toISOString(), mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The message count, provider and model from the last complete line (reads from the end, more only when needed). */
export function readSessionTail(file: string, meta: MetaRecord): { messageCount: number; provider: string; model: string } {
  const fallback = { messageCount: 0, provider: meta.provider, model: meta.model };
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    for (let window = 65536; ; window *= 4) {
      const start = Math.max(0, size - window);
      const buf = Buffer.alloc(size - start);
      fs.readSync(fd, buf, 0, buf.length, start);
      const last = buf.lastIndexOf(0x0a);
      if (last < 0) return fallback;
      const prev = last > 0 ? buf.lastIndexOf(0x0a, last - 1) : -1;
      if (prev >= 0 || start === 0) {
        const text = buf.subarray(prev + 1, last).toString('utf8');
        const parsed = SessionLine.safeParse(JSON.parse(text));
        if (!parsed.success) return fallback; // the header (no messages yet)
        return { messageCount: parsed.data.count, provider: parsed.data.provider, model: parsed.data.model };
      }
      if (start === 0) return fallback;
    }
  } catch {
    return fallback;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
