import path from 'node:path';
import { isWithin, realPathOf } from '../workspace/paths';

/**
 * A write target that no longer resolves to itself: a folder on its way, or the file itself, was replaced by a
 * symlink after the path was checked. Nothing was written.
 */
export class SymlinkRedirectError extends Error {
  constructor(
    readonly target: string,
    readonly realTarget: string,
  ) {
    super(`${target} now resolves through a symlink to ${realTarget}; not written (the path changed after it was checked)`);
    this.name = 'SymlinkRedirectError';
  }
}

/**
 * Checks, at the moment of writing, that `absPath` (a path whose symlinks were resolved when it was judged) still
 * resolves to itself: every folder of its parent chain is a real folder and the file is not a symlink. Throws a
 * SymlinkRedirectError naming where it leads now. A missing part of the chain is fine (it will be created).
 */
export function assertResolvesToItself(absPath: string): void {
  const target = path.resolve(absPath);
  const real = realPathOf(target);
  if (real !== target) throw new SymlinkRedirectError(target, real);
}

/**
 * The sentence for a change or tool result refused by a SymlinkRedirectError: says whether the path now leads outside
 * the workspace and names the real target.
 */
export function describeRedirect(shown: string, err: SymlinkRedirectError, workspaceRoot: string): string {
  const root = realPathOf(path.resolve(workspaceRoot));
  const where = isWithin(root, err.realTarget) ? 'somewhere else in the workspace' : 'outside the workspace';
  return (
    `${shown} now resolves ${where} through a symlink, to ${err.realTarget}; not written. ` +
    'A folder on its path (or the file itself) was replaced by a symlink after the change was checked.'
  );
}
