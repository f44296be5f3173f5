/**
 * Keeps the saved sessions within `sessions.maxCount` and `sessions.maxAgeDays`: the oldest (by last write) go first.
 * A session a live runtime holds is never removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INDEX_FILE, readIndex, rewriteIndex } from './index-file';
import { lockedByOther } from './lock';
import { removeApplied } from './applied-file';
import { idOfEntry, lockFile, sessionFile } from './paths';

export interface RetentionLimits {
  maxCount: number;
  maxAgeDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Removes what is over the limits; returns the ids removed. `keep` (the current session) always stays. */
export function pruneSessions(dir: string, limits: RetentionLimits, keep: ReadonlySet<string>, now = Date.now()): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const sessions: Array<{ id: string; mtimeMs: number }> = [];
  for (const name of names) {
    const id = idOfEntry(name);
    if (!id) continue;
    try {
      sessions.push({ id, mtimeMs: fs.statSync(sessionFile(dir, id)).mtimeMs });
    } catch {
      // removed meanwhile
    }
  }
  sessions.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const removed: string[] = [];
  const oldest = now - limits.maxAgeDays * DAY_MS;
  // The kept sessions count first: the limit leaves room for them.
  let kept = sessions.filter((s) => keep.has(s.id)).length;
  for (const s of sessions) {
    if (keep.has(s.id)) continue;
    const over = kept >= limits.maxCount || s.mtimeMs < oldest;
    if (!over || lockedByOther(lockFile(dir, s.id))) {
      kept++;
      continue;
    }
    fs.rmSync(sessionFile(dir, s.id), { force: true });
    fs.rmSync(lockFile(dir, s.id), { force: true });
    removeApplied(dir, s.id);
    removed.push(s.id);
  }
  if (removed.length > 0 && fs.existsSync(path.join(dir, INDEX_FILE))) {
    // The index keeps only sessions that are still there (one a runtime adds meanwhile is read from its file later).
    const gone = new Set(removed);
    rewriteIndex(dir, [...readIndex(dir).values()].filter((m) => !gone.has(m.sessionId) && fs.existsSync(sessionFile(dir, m.sessionId))));
  }
  return removed;
}
