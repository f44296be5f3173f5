import { uniqueSuffix } from '../unique-id';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { assertResolvesToItself } from './safe-target';

/** Name of the temp file of an atomic write: `.<name>.<pid>.<12 hex>.tmp` next to the target. */
export function tempFileName(baseName: string, pid: number, suffix: string): string {
  return `.${baseName}.${pid}.${suffix}.tmp`;
}

/** Matches a temp file name of `writeFileAtomic` exactly; group 1 is the writer's process id. */
export const TEMP_FILE_PATTERN = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp$/;

export interface AtomicWriteOptions {
  /** File mode for a file that does not exist yet (an existing file keeps its own mode). */
  mode?: number;
}

/**
 * Write a file atomically: the content goes to a temp file in the same directory, which is then renamed over the
 * target, so readers never see a half-written file. Missing parent directories are created.
 * `absPath` must be a resolved path (no symlinks): the write is refused with a SymlinkRedirectError when, at the moment
 * of writing, a folder on its way or the file itself has become a symlink. The temp file is removed when anything fails.
 */
export async function writeFileAtomic(absPath: string, content: string, opts: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(absPath);
  assertResolvesToItself(absPath);
  await fs.mkdir(dir, { recursive: true });
  assertResolvesToItself(absPath);
  const temp = path.join(dir, tempFileName(path.basename(absPath), process.pid, uniqueSuffix()));
  let mode: number | undefined;
  try {
    mode = (await fs.stat(absPath)).mode & 0o7777;
  } catch {
    mode = opts.mode;
  }
  try {
    // 'wx': never follows or reuses something already at the temp path.
    await fs.writeFile(temp, content, { encoding: 'utf8', flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    if (mode !== undefined) await fs.chmod(temp, mode);
    assertResolvesToItself(absPath);
    await fs.rename(temp, absPath);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Read a text file, or null when it does not exist. Other errors (permissions, a directory) are thrown. */
export async function readTextOrNull(absPath: string): Promise<string | null> {
  try {
    return await fs.readFile(absPath, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

/**
 * Delete a file; a file that is already gone counts as deleted. Like writeFileAtomic, refused with a
 * SymlinkRedirectError when `absPath` no longer resolves to itself.
 */
export async function deleteFileIfExists(absPath: string): Promise<void> {
  assertResolvesToItself(absPath);
  try {
    await fs.unlink(absPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
