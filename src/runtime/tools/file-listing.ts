import path from 'node:path';
import { picomatch } from '../workspace/glob';
import type { WorkspaceFiles } from '../workspace/types';
import { IgnoreRules } from '../workspace/ignore-rules';
import { isWithin, realPathOf, toPosixRelative } from '../workspace/paths';
import { walkFiles } from '../workspace/walk';

/** Hard cap on files visited by one listing or JS search, so a huge tree cannot stall a run. */
export const MAX_WALKED_FILES = 200_000;

/** A glob filter: patterns without `/` match the file name, others the path relative to `base`. */
export function globFilter(pattern: string | undefined, base: string): (absPath: string) => boolean {
  if (!pattern) return () => true;
  const isMatch = relativeGlobFilter(pattern);
  return (absPath) => isMatch(toPosixRelative(base, absPath));
}

/** The same filter for a path already relative to `base` in `/` form. */
export function relativeGlobFilter(pattern: string | undefined): (relPath: string) => boolean {
  if (!pattern) return () => true;
  return picomatch()(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** Ignore rules rooted at the workspace, or at `base` when it lies outside the workspace. */
export function rulesFor(root: string, base: string): IgnoreRules {
  const realRoot = realPathOf(path.resolve(root));
  return new IgnoreRules(isWithin(realRoot, base) ? realRoot : base);
}

/**
 * `rules.ignoresPath` for many files at once: a folder's verdict is worked out once and reused for every file in it
 * (each file then costs one rule test instead of one per folder on its path).
 */
export function ignoredPathChecker(rules: IgnoreRules): (absPath: string) => Promise<boolean> {
  const folders = new Map<string, Promise<boolean>>();
  const folderIgnored = (dir: string): Promise<boolean> => {
    let verdict = folders.get(dir);
    if (!verdict) {
      // A folder is ignored through its parent or as a folder entry itself (`build/` rules match folders only).
      verdict =
        dir === rules.root || !isWithin(rules.root, dir)
          ? Promise.resolve(false)
          : folderIgnored(path.dirname(dir)).then((parent) => parent || rules.ignoresEntry(dir, true));
      folders.set(dir, verdict);
    }
    return verdict;
  };
  return async (absPath) => {
    if (!isWithin(rules.root, absPath)) return rules.ignoresPath(absPath);
    return (await folderIgnored(path.dirname(absPath))) || rules.ignoresEntry(absPath, false);
  };
}

/** True when proposals create files below `dir` (a folder that exists only in the change batch so far). */
export function hasPendingFilesUnder(files: WorkspaceFiles, dir: string): boolean {
  return files.pendingPaths().created.some((f) => f !== dir && isWithin(dir, f));
}

export interface Listing {
  /** Absolute paths, sorted by their posix path. */
  files: string[];
  truncated: boolean;
}

/**
 * The one order of file paths in every tool: by Unicode code point, which is also the byte order of their UTF-8 (so
 * ripgrep's raw output can be compared without decoding it). Plain `<` compares UTF-16 units and puts U+10000 and
 * above before U+E000–U+FFFF; only that case needs the fix-up.
 */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  return x < 0xd800 && y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
}

/** A UTF-16 unit's place in code point order: surrogates (astral characters) sort after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xd800 ? (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000) : unit;
}

/**
 * Files under `base` as the agent sees them: on disk and not ignored, plus files created by pending proposals,
 * minus files deleted by them.
 */
export async function listWorkspaceFiles(
  files: WorkspaceFiles,
  base: string,
  filter: (absPath: string) => boolean,
  signal?: AbortSignal,
): Promise<Listing> {
  const rules = rulesFor(files.root, base);
  const walked = await walkFiles({ base, rules, maxFiles: MAX_WALKED_FILES, signal });
  const pending = files.pendingPaths();
  const deleted = new Set(pending.deleted);
  const all = new Set(walked.files.filter((f) => !deleted.has(f)));
  for (const created of pending.created) {
    if (isWithin(base, created) && created !== base && !(await rules.ignoresPath(created))) all.add(created);
  }
  const kept = [...all].filter(filter).sort((a, b) => comparePaths(a.split(path.sep).join('/'), b.split(path.sep).join('/')));
  return { files: kept, truncated: walked.truncated };
}
