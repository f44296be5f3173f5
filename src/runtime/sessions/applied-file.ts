/**
 * What a session's applied change batches can undo, saved next to its session file: `<sessionId>.undo.json` (0600 in
 * the 0700 sessions folder), rewritten whole (temp file, fsync, rename) after each apply and undo. Read back on
 * attach; a record naming a file outside the workspace (a hand-edited file) is dropped.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as z from '../../protocol/zod';
import { AppliedBatchRecord } from '../changes/applied-records';
import { writeDurably } from '../changes/journal';
import { isWithin, realPathOf } from '../workspace/paths';
import { isValidSessionId } from './paths';
import { ensureSessionsDir } from './writer';

const UNDO_FILE_SUFFIX = '.undo.json';
const UndoFile = z.lazy(() =>
  z.object({ version: z.literal(1), sessionId: z.string(), batches: z.array(AppliedBatchRecord) }),
);

/** The undo file of a valid session id; throws on an id that could name another path (callers check first). */
export function undoFile(dir: string, id: string): string {
  if (!isValidSessionId(id)) throw new Error(`not a session id: ${JSON.stringify(id)}`);
  return path.join(dir, `${id}${UNDO_FILE_SUFFIX}`);
}

/** Saves the records of session `id`; none removes the file. */
export async function saveApplied(dir: string, id: string, batches: AppliedBatchRecord[]): Promise<void> {
  const file = undoFile(dir, id);
  if (batches.length === 0) {
    await fs.promises.rm(file, { force: true });
    return;
  }
  ensureSessionsDir(dir);
  await writeDurably(file, JSON.stringify({ version: 1, sessionId: id, batches }));
}

/** The file lies in the workspace under the path it names, and the folders it lists lie between the two. */
function inWorkspace(f: AppliedBatchRecord['files'][number], root: string): boolean {
  const rel = path.relative(root, f.absolutePath);
  if (!path.isAbsolute(f.absolutePath) || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return false;
  if (rel.split(path.sep).join('/') !== f.path) return false;
  return f.createdDirs.every((d) => isWithin(root, d) && d !== root && isWithin(d, f.absolutePath));
}

/** The saved records of session `id` in workspace `cwd`; none when there are none or the file cannot be read. */
export function loadApplied(dir: string, id: string, cwd: string): AppliedBatchRecord[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(undoFile(dir, id), 'utf8'));
  } catch {
    return [];
  }
  const parsed = UndoFile.safeParse(raw);
  if (!parsed.success || parsed.data.sessionId !== id) return [];
  const roots = [path.resolve(cwd), realPathOf(path.resolve(cwd))];
  return parsed.data.batches
    .map((b) => ({ ...b, files: b.files.filter((f) => roots.some((root) => inWorkspace(f, root))) }))
    .filter((b) => b.files.length > 0);
}

/** Removes the undo file of session `id` (the session was deleted). */
export function removeApplied(dir: string, id: string): void {
  fs.rmSync(undoFile(dir, id), { force: true });
}
