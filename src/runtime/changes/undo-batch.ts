/**
 * Reverting files of an applied batch through the apply path itself (apply-batch.ts): journaled, each file re-resolved
 * at write time (a path that now leads through a symlink is `failed`, nothing followed) and checked against what the
 * batch wrote (a file changed since is `stale` and kept). A created file is deleted (and the folders the batch made
 * for it, when left empty), a deleted file re-created with its mode, a modified file restored.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { UndoFileResult } from '../../protocol/undo';
import { isWithin, realPathOf } from '../workspace/paths';
import { applyChanges } from './apply-batch';
import { removeEmptyDirs } from './apply-recovery';
import type { AppliedFileRecord } from './applied-records';
import { assertResolvesToItself } from './safe-target';

/** The sentence of a file left alone because it changed after the batch wrote it. */
export const staleUndoReason = (shown: string) => `${shown} changed since it was applied — kept`;

/** Folders the batch made for `file` that still lie between the workspace and the file: never anything else. */
function ownFolders(file: AppliedFileRecord, roots: string[]): string[] {
  const between = (d: string) => roots.some((root) => isWithin(root, d) && d !== root) && isWithin(d, path.dirname(file.absolutePath));
  return file.createdDirs.filter(between);
}

/** The re-created file gets its mode back, through a handle opened without following a symlink swapped in meanwhile. */
async function restoreMode(file: AppliedFileRecord): Promise<void> {
  if (file.mode === undefined) return;
  assertResolvesToItself(file.absolutePath);
  const handle = await fs.open(file.absolutePath, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
  try {
    await handle.chmod(file.mode & 0o777);
  } finally {
    await handle.close();
  }
}

/** Reverts `files` (all undoable) of batch `batchId`; one result per file, in their order. */
export async function revertFiles(
  batchId: string,
  files: AppliedFileRecord[],
  opts: { root: string; stateDir: string },
): Promise<UndoFileResult[]> {
  const changes = files.map((f) => ({ id: f.changeId, path: f.path, absolutePath: f.absolutePath, originalContent: f.after, proposedContent: f.before }));
  const applied = await applyChanges(`undo_${batchId}`, changes, { root: opts.root, stateDir: opts.stateDir });
  const roots = [path.resolve(opts.root), realPathOf(path.resolve(opts.root))];
  const results: UndoFileResult[] = [];
  for (const f of files) {
    const base = { changeId: f.changeId, path: f.path };
    const r = applied.get(f.changeId);
    if (r?.status === 'stale') results.push({ ...base, status: 'stale', reason: staleUndoReason(f.path) });
    else if (r?.status !== 'applied') results.push({ ...base, status: 'failed', reason: r?.error ?? `${f.path} was not reverted` });
    else {
      if (f.after === null) await restoreMode(f).catch(() => undefined); // re-created: content is back, the mode is best effort
      results.push({ ...base, status: 'reverted' });
    }
  }
  // Newest first, so a folder made for one file is removed after the files in it.
  for (const [i, f] of [...files.entries()].reverse()) {
    if (f.before === null && results[i]?.status === 'reverted') await removeEmptyDirs(ownFolders(f, roots));
  }
  return results;
}
