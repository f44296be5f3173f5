import { assertResolvesToItself, describeRedirect, SymlinkRedirectError } from '../changes/safe-target';
import { isWithin, resolveToolPath, toPosixRelative, type ResolvedToolPath } from '../workspace/paths';
import { ToolInputError } from './types';

/** Resolve a model-given path against the tool context's working directory. */
export function resolveArgPath(cwd: string, p: string): ResolvedToolPath {
  return resolveToolPath(cwd, p);
}

/**
 * The path each write call was judged on (permission, directory access), keyed by the call's parsed arguments: `run`
 * writes exactly there, never to what the model's path resolves to by then.
 */
const judged = new WeakMap<object, ResolvedToolPath>();

/** Resolve the path of a write call for its permission check and remember it for `run`. */
export function judgeWritePath(args: object, cwd: string, p: string): ResolvedToolPath {
  const resolved = resolveToolPath(cwd, p);
  judged.set(args, resolved);
  return resolved;
}

/**
 * The path a write call may touch: the one its permission was judged on (resolved now when there was no check), and
 * only while it still resolves to itself. A folder on the way (or the file) swapped for a symlink since the check is
 * refused with a ToolInputError that names where the path leads now.
 */
export async function writePathForRun(args: object, cwd: string, p: string): Promise<ResolvedToolPath> {
  const resolved = judged.get(args) ?? resolveToolPath(cwd, p);
  await guardRedirect(resolved.relative, cwd, () => assertResolvesToItself(resolved.real));
  return resolved;
}

/** Runs `action`, turning a SymlinkRedirectError into a ToolInputError the model can read. */
export async function guardRedirect<T>(shown: string, cwd: string, action: () => T | Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    if (err instanceof SymlinkRedirectError) throw new ToolInputError(describeRedirect(shown, err, cwd));
    throw err;
  }
}

/** How a path is shown to the model: workspace-relative when inside, absolute otherwise. */
export function displayPath(cwd: string, absPath: string): string {
  return resolveToolPath(cwd, absPath).relative;
}

/**
 * How files below a listed or searched folder are shown, without resolving each (two realpath calls per file add up
 * over thousands): listings and searches do not follow symlinked folders, so a path below the real folder is shown as
 * the folder's display path followed by the rest.
 */
export class ShownBelow {
  /** The folder as displayPath shows it. */
  readonly base: string;

  constructor(
    private readonly cwd: string,
    /** The folder (its real path). */
    readonly folder: string,
  ) {
    this.base = displayPath(cwd, folder);
  }

  /** A `/`-form path relative to the folder. */
  relative(rel: string): string {
    return this.base === '.' ? rel : `${this.base}/${rel}`;
  }

  /** Any absolute path: the folder itself, a path below it, or elsewhere (then as displayPath shows it). */
  absolute(absPath: string): string {
    if (absPath === this.folder) return this.base;
    if (!isWithin(this.folder, absPath)) return displayPath(this.cwd, absPath);
    return this.relative(toPosixRelative(this.folder, absPath));
  }
}

/** Sentence appended to write results so the model knows whether the change is on disk or awaiting review. */
export function writeModeNote(mode: 'proposed' | 'written'): string {
  return mode === 'proposed'
    ? 'Proposed, awaiting the user\'s review (not on disk yet; your reads see the new content).'
    : 'Written to disk.';
}

/** Count lines the way editors do: a trailing newline does not start a new line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}
