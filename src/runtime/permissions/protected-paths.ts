/**
 * Paths whose writes are never approved automatically: editor settings, the agent's own config,
 * dotfiles in the home folder, and system folders.
 */
import * as path from 'node:path';

const SYSTEM_ROOTS = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/boot', '/sys', '/proc', '/dev', '/var'];
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Why writing `absolutePath` always asks, or undefined when it is an ordinary path. */
export function protectedReason(absolutePath: string, ctx: { cwd: string; home?: string }): string | undefined {
  const target = path.resolve(absolutePath);
  const segments = target.split(path.sep);
  const parent = segments[segments.length - 2];
  if (parent === '.vscode' && target.endsWith('.json')) return 'it is an editor settings file';
  if (segments.includes('.agentcli')) return "it is the agent's own configuration";
  if (ctx.home !== undefined) {
    const home = path.resolve(ctx.home);
    if (isInside(target, home) && target !== home) {
      const first = path.relative(home, target).split(path.sep)[0] ?? '';
      const inWorkspace = isInside(target, ctx.cwd);
      if (first.startsWith('.') && (!inWorkspace || path.dirname(target) === home)) return 'it is a dotfile in the home folder';
    }
  }
  if (HARMLESS_DEVICES.has(target) || isInside(target, ctx.cwd)) return undefined;
  if (SYSTEM_ROOTS.some((root) => isInside(target, root))) return 'it is a system path';
  return undefined;
}
