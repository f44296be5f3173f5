/**
 * The history list (`getHistory`): newest first, one workspace (or all). Reads only each file's head (its meta line)
 * and, for the entries of the page asked for, its last line: fast with thousands of saved sessions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { idOfEntry, sessionFile } from './paths';
import { readSessionHead, readSessionTail, type SessionSummary } from './reader';
import { appendToIndex, readIndex } from './index-file';
import type { MetaRecord } from './records';

export interface HistoryEntry {
  sessionId: string;
  title: string;
  cwd: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  provider: string;
  model: string;
}

export interface HistoryQuery {
  page: number;
  pageSize: number;
  /** Only sessions of this folder; undefined lists every workspace. */
  cwd: string | undefined;
}

export interface HistoryPage {
  entries: HistoryEntry[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Meta lines already read, by file: a file's meta line never changes, so later listings only stat it (for its last
 * write). A file replaced by another with the same name is told apart by its inode.
 */
const heads = new Map<string, { ino: number; meta: MetaRecord }>();

/** A file's head: from this process's cache, else the index, else the file itself (`unindexed` collects those). */
function summaryOf(file: string, indexed: MetaRecord | undefined, unindexed: MetaRecord[]): SessionSummary | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    heads.delete(file);
    return undefined;
  }
  const known = heads.get(file);
  const meta = known?.ino === stat.ino ? known.meta : indexed;
  if (meta) {
    heads.set(file, { ino: stat.ino, meta });
    return { meta, updatedAt: stat.mtime.toISOString(), mtimeMs: stat.mtimeMs, ino: stat.ino };
  }
  const summary = readSessionHead(file);
  if (summary) {
    heads.set(file, { ino: summary.ino, meta: summary.meta });
    unindexed.push(summary.meta);
  }
  return summary;
}

/** Session files in the folder, with their heads (unreadable and corrupt files are left out). */
export function scanSessions(dir: string): Array<{ id: string; file: string; summary: SessionSummary }> {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const index = readIndex(dir);
  const unindexed: MetaRecord[] = [];
  const out: Array<{ id: string; file: string; summary: SessionSummary }> = [];
  for (const name of names) {
    const id = idOfEntry(name);
    if (!id) continue;
    const file = sessionFile(dir, id);
    const summary = summaryOf(file, index.get(id), unindexed);
    if (summary && summary.meta.sessionId === id) out.push({ id, file, summary });
  }
  appendToIndex(dir, unindexed.filter((m) => idOfEntry(`${m.sessionId}.jsonl`) !== undefined));
  return out;
}

/** A folder's real path (a symlinked folder is the folder it points to), as written when it does not exist. */
function realFolder(p: string, cache: Map<string, string>): string {
  let real = cache.get(p);
  if (real === undefined) {
    try {
      real = fs.realpathSync.native(p);
    } catch {
      real = path.resolve(p);
    }
    cache.set(p, real);
  }
  return real;
}

export function listHistory(dir: string, q: HistoryQuery): HistoryPage {
  const reals = new Map<string, string>();
  const cwd = q.cwd === undefined ? undefined : realFolder(q.cwd, reals);
  const matching = scanSessions(dir)
    .filter((s) => cwd === undefined || realFolder(s.summary.meta.cwd, reals) === cwd)
    .sort((a, b) => b.summary.mtimeMs - a.summary.mtimeMs || (a.id < b.id ? 1 : -1));
  const start = (q.page - 1) * q.pageSize;
  const entries = matching.slice(start, start + q.pageSize).map(({ file, summary }) => {
    const tail = readSessionTail(file, summary.meta);
    return {
      sessionId: summary.meta.sessionId,
      title: summary.meta.title,
      cwd: summary.meta.cwd,
      createdAt: summary.meta.createdAt,
      updatedAt: summary.updatedAt,
      messageCount: tail.messageCount,
      provider: tail.provider,
      model: tail.model,
    };
  });
  return { entries, total: matching.length, page: q.page, pageSize: q.pageSize };
}

/** The newest saved session of a folder (`agentcli --continue`). */
export function latestSession(dir: string, cwd: string): string | undefined {
  return listHistory(dir, { page: 1, pageSize: 1, cwd }).entries[0]?.sessionId;
}
