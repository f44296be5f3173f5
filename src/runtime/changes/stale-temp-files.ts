/**
 * Removes temp files that atomic writes of dead processes left behind (`.<name>.<pid>.<12 hex>.tmp`, see
 * atomic-write.ts). Only files matching that exact pattern whose process is not running are removed. Where it looks is
 * bounded, so a start never walks a huge tree: the folders named by recovered apply journals, then the workspace
 * breadth-first up to MAX_SWEEP_FOLDERS folders (skipping `.git` and `node_modules`, and never following symlinks).
 * A temp file younger than a minute is kept too (its writer may run in another pid namespace, a container sharing the
 * workspace, where its id means nothing here), unless its writer is one of `deadPids`, known dead (a recovered
 * journal's runtime).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { TEMP_FILE_PATTERN } from './atomic-write';
import { isProcessAlive } from './journal';
import { realPathOf } from '../workspace/paths';

/** Folders of the workspace looked at per start. */
export const MAX_SWEEP_FOLDERS = 200;
/** Temp files modified more recently than this are never removed. */
export const MIN_TEMP_AGE_MS = 60_000;
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

export interface SweepResult {
  removed: string[];
  /** Temp files of running processes, left alone. */
  kept: string[];
  foldersSearched: number;
}

interface SweepContext {
  result: SweepResult;
  alive: Map<number, boolean>;
  minAgeMs: number;
  deadPids: ReadonlySet<number>;
}

async function sweepFolder(dir: string, names: string[], { result, alive, minAgeMs, deadPids }: SweepContext): Promise<void> {
  for (const name of names) {
    const match = TEMP_FILE_PATTERN.exec(name);
    if (!match?.[1]) continue;
    const pid = Number(match[1]);
    let running = alive.get(pid);
    if (running === undefined) {
      running = pid === process.pid || isProcessAlive(pid);
      alive.set(pid, running);
    }
    const file = path.join(dir, name);
    if (running) {
      result.kept.push(file);
      continue;
    }
    try {
      const info = await fs.lstat(file);
      if (!info.isFile()) continue; // a folder or a symlink that only looks like a temp file
      if (!deadPids.has(pid) && Date.now() - info.mtimeMs < minAgeMs) {
        result.kept.push(file);
        continue;
      }
      await fs.unlink(file);
      result.removed.push(file);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/** Sweeps `extraFolders` (each alone) and the workspace `root` breadth-first, at most `maxFolders` folders in all. */
export async function removeStaleTempFiles(
  root: string,
  extraFolders: string[] = [],
  opts: { maxFolders?: number; minAgeMs?: number; deadPids?: number[] } = {},
): Promise<SweepResult> {
  const maxFolders = opts.maxFolders ?? MAX_SWEEP_FOLDERS;
  const result: SweepResult = { removed: [], kept: [], foldersSearched: 0 };
  const alive = new Map<number, boolean>();
  const ctx: SweepContext = { result, alive, minAgeMs: opts.minAgeMs ?? MIN_TEMP_AGE_MS, deadPids: new Set(opts.deadPids) };
  const seen = new Set<string>();
  for (const dir of extraFolders) {
    // A folder now reached through a symlink is not the one the journal named.
    if (seen.has(dir) || result.foldersSearched >= maxFolders || realPathOf(dir) !== dir) continue;
    seen.add(dir);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    result.foldersSearched++;
    await sweepFolder(dir, names, ctx);
  }
  const queue = [root];
  while (queue.length > 0 && result.foldersSearched < maxFolders) {
    const dir = queue.shift()!;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    result.foldersSearched++;
    if (!seen.has(dir)) await sweepFolder(dir, entries.filter((e) => e.isFile()).map((e) => e.name), ctx);
    seen.add(dir);
    for (const entry of entries) {
      if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) queue.push(path.join(dir, entry.name));
    }
  }
  return result;
}
