import { promises as fs, type Dirent } from 'node:fs';
import path from 'node:path';
import type { IgnoreRules } from './ignore-rules';

export interface WalkOptions {
  /** Folder to list (absolute). */
  base: string;
  rules: IgnoreRules;
  /** Stop after this many files (the result says it was cut). */
  maxFiles: number;
  signal?: AbortSignal;
}

export interface WalkResult {
  /** Absolute file paths, not ignored, in no particular order. */
  files: string[];
  truncated: boolean;
}

async function entryKind(dir: string, entry: Dirent): Promise<'file' | 'dir' | 'other'> {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'dir';
  if (!entry.isSymbolicLink()) return 'other';
  try {
    // Symlinked files are listed; symlinked folders are not followed (no cycles, no escaping the workspace).
    return (await fs.stat(path.join(dir, entry.name))).isFile() ? 'file' : 'other';
  } catch {
    return 'other';
  }
}

/** All files below `base` that the ignore rules keep, skipping `.git`. Unreadable folders are skipped. */
export async function walkFiles(options: WalkOptions): Promise<WalkResult> {
  const files: string[] = [];
  const stack = [options.base];
  while (stack.length > 0) {
    if (options.signal?.aborted) break;
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const kind = await entryKind(dir, entry);
      if (kind === 'other') continue;
      const abs = path.join(dir, entry.name);
      if (await options.rules.ignoresEntry(abs, kind === 'dir')) continue;
      if (kind === 'dir') {
        stack.push(abs);
        continue;
      }
      if (files.length >= options.maxFiles) return { files, truncated: true };
      files.push(abs);
    }
  }
  return { files, truncated: false };
}
