/**
 * Where an `@path` mention points, and whether that is inside the workspace folder once symlinks are resolved: the
 * prompt box attaches only workspace files (a pasted `@../../.ssh/id_rsa`, `@/etc/shadow` or a symlink out of the
 * folder is refused). No `vscode` import.
 */
// fs.promises (loaded on first use), not node:fs/promises: this module loads at activation
import fs from 'node:fs';
import * as path from 'node:path';

/** Where `mention` points, symlinks resolved, and whether that is inside `folder`; undefined when it does not exist. */
export async function insideFolder(folder: string, mention: string): Promise<{ ok: boolean; path: string } | undefined> {
  try {
    const [realFolder, real] = await Promise.all([fs.promises.realpath(folder), fs.promises.realpath(path.resolve(folder, mention))]);
    const rel = path.relative(realFolder, real);
    const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    return { ok: !outside, path: real };
  } catch {
    return undefined;
  }
}
