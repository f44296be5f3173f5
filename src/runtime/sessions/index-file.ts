/**
 * `~/.agentcli/sessions/index.jsonl`: the meta line of every saved session, appended when its file is made, so a
 * listing reads one file and stats the others instead of opening thousands. It is only a shortcut: a session missing
 * from it is read from its own file (and added), an entry whose file is gone is ignored, and retention rewrites it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { uniqueSuffix } from '../unique-id';
import { SESSION_FILE_VERSION, type MetaRecord } from './records';

export const INDEX_FILE = 'index.jsonl';

/** Appends meta lines in one write (O_APPEND: lines of concurrent runtimes do not mix). Best effort. */
export function appendToIndex(dir: string, metas: readonly MetaRecord[]): void {
  if (metas.length === 0) return;
  try {
    fs.appendFileSync(path.join(dir, INDEX_FILE), metas.map((m) => JSON.stringify(m) + '\n').join(''), { mode: 0o600 });
  } catch {
    // the listing falls back to the session files
  }
}

const META_STRINGS = ['sessionId', 'cwd', 'createdAt', 'title', 'provider', 'model'] as const;

/** The shape check of MetaRecord, written out: thousands of lines are checked per listing. */
function isMeta(v: unknown): v is MetaRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return r.type === 'meta' && r.version === SESSION_FILE_VERSION && META_STRINGS.every((k) => typeof r[k] === 'string');
}

/** The index's meta lines by session id; unreadable lines (a torn last one) are skipped. */
export function readIndex(dir: string): Map<string, MetaRecord> {
  const out = new Map<string, MetaRecord>();
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, INDEX_FILE), 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const meta = JSON.parse(line) as unknown;
      if (isMeta(meta)) out.set(meta.sessionId, meta);
    } catch {
      // a torn or foreign line
    }
  }
  return out;
}

/** Replaces the index with `metas` (after retention removed sessions): temp file, then rename. */
export function rewriteIndex(dir: string, metas: readonly MetaRecord[]): void {
  const tmp = path.join(dir, `${INDEX_FILE}.${uniqueSuffix()}.tmp`);
  try {
    fs.writeFileSync(tmp, metas.map((m) => JSON.stringify(m) + '\n').join(''), { mode: 0o600 });
    fs.renameSync(tmp, path.join(dir, INDEX_FILE));
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}
