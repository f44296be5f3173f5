import { uniqueSuffix } from '../unique-id';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * Write a file atomically: the content goes to a temp file in the same directory, which is then renamed over the
 * target, so readers never see a half-written file. Missing parent directories are created.
 * The temp file is removed when anything fails.
 */
export async function writeFileAtomic(absPath: string, content: string): Promise<void> {
  const dir = path.dirname(absPath);
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(absPath)}.${process.pid}.${uniqueSuffix()}.tmp`);
  let mode: number | undefined;
  try {
    mode = (await fs.stat(absPath)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  try {
    await fs.writeFile(temp, content, mode === undefined ? { encoding: 'utf8' } : { encoding: 'utf8', mode });
    if (mode !== undefined) await fs.chmod(temp, mode);
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

/** Delete a file; a file that is already gone counts as deleted. */
export async function deleteFileIfExists(absPath: string): Promise<void> {
  try {
    await fs.unlink(absPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
