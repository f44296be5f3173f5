import { readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ToolInputError } from '../tools/types';

export interface ResolvedToolPath {
  /** Absolute, normalized path (symlinks not resolved). */
  absolute: string;
  /** Path with symlinks resolved: realpath of the nearest existing ancestor joined with the rest. */
  real: string;
  /** Posix-style path relative to the workspace root, or the absolute path when outside. */
  relative: string;
  /** True when `real` is the workspace root or below it (after resolving the root's own symlinks). */
  inside: boolean;
}

/** Symlinks followed at most this deep while resolving one path (the kernel's own limit is 40). */
const MAX_LINK_DEPTH = 40;

/**
 * Realpath of the nearest existing ancestor of `absolute`, joined with the not-yet-existing rest. A dangling symlink
 * on the way is followed to where it points (writing through it would create that target), so `notes.txt ->
 * .git/hooks/pre-commit` resolves to the hook even before the hook exists.
 */
export function realPathOf(absolute: string): string {
  return resolveReal(absolute, 0);
}

function resolveReal(absolute: string, depth: number): string {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch {
      if (depth < MAX_LINK_DEPTH) {
        const link = readLinkOrNull(current);
        if (link !== null) return resolveReal(path.resolve(path.dirname(current), link, ...[...missing].reverse()), depth + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function readLinkOrNull(p: string): string | null {
  try {
    return readlinkSync(p);
  } catch {
    return null;
  }
}

/** True when `child` is `parent` or below it (both absolute, already resolved). */
export function isWithin(parent: string, child: string): boolean {
  // The common case decided on the strings: `child` is `parent`, a separator and a rest with no `..` in it (which
  // could climb back out). Anything else (`..`, mixed separators, other case on Windows) goes through path.relative;
  // a listing checks thousands of paths and each relative() resolves both.
  if (parent.length > 0 && child.startsWith(parent)) {
    const restAt = parent.endsWith(path.sep) ? parent.length : parent.length + 1;
    if (child.length === parent.length) return true;
    if ((restAt === parent.length || child[parent.length] === path.sep) && !child.includes('..', restAt)) return true;
  }
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Posix-style path of `absolute` relative to `root` ('.' for the root itself). */
export function toPosixRelative(root: string, absolute: string): string {
  const rel = path.relative(root, absolute);
  return rel === '' ? '.' : rel.split(path.sep).join('/');
}

/** Resolve a path given by the model (relative to `root`, `~` = home) and tell whether it stays in the workspace. */
export function resolveToolPath(root: string, p: string): ResolvedToolPath {
  if (p.trim() === '') throw new ToolInputError('path is empty: give a file path relative to the workspace root');
  if (p.includes('\0')) throw new ToolInputError('path contains a NUL byte: give a plain file path');
  let expanded = p;
  if (p === '~') expanded = homedir();
  else if (p.startsWith('~/') || p.startsWith(`~${path.sep}`)) expanded = path.join(homedir(), p.slice(2));
  const absolute = path.resolve(root, expanded);
  const real = realPathOf(absolute);
  const realRoot = realPathOf(path.resolve(root));
  const inside = isWithin(realRoot, real);
  let relative = absolute;
  if (inside) {
    const lexicalRoot = path.resolve(root);
    relative = isWithin(lexicalRoot, absolute) ? toPosixRelative(lexicalRoot, absolute) : toPosixRelative(realRoot, real);
  }
  return { absolute, real, relative, inside };
}
