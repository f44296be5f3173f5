import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deleteFileIfExists, readTextOrNull, writeFileAtomic } from '../changes/atomic-write';
import type { ChangeBatchStore } from '../changes/store';
import { resolveToolPath } from './paths';
import { FileTooLargeError, type WorkspaceFiles, type WriteOutcome } from './types';

async function readBytesOrNull(absPath: string, maxBytes?: number): Promise<Buffer | null> {
  try {
    if (maxBytes !== undefined) {
      // Checked before reading: a huge file would otherwise be read whole (and cannot become a string at all).
      const info = await fs.stat(absPath);
      if (info.isFile() && info.size > maxBytes) throw new FileTooLargeError(info.size, maxBytes);
    }
    return await fs.readFile(absPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

async function isFile(absPath: string): Promise<boolean> {
  try {
    return (await fs.stat(absPath)).isFile();
  } catch {
    return false;
  }
}

/** Writes become proposals in the change batch; reads see proposed content. Nothing touches disk. */
export class BatchedFiles implements WorkspaceFiles {
  readonly root: string;

  constructor(private readonly store: ChangeBatchStore) {
    this.root = store.root;
  }

  async readText(absPath: string): Promise<string | null> {
    const proposed = this.store.proposedContent(absPath);
    return proposed !== undefined ? proposed : readTextOrNull(absPath);
  }

  async readBytes(absPath: string, opts: { maxBytes?: number } = {}): Promise<Buffer | null> {
    const proposed = this.store.proposedContent(absPath);
    if (proposed === undefined) return readBytesOrNull(absPath, opts.maxBytes);
    return proposed === null ? null : Buffer.from(proposed, 'utf8');
  }

  async exists(absPath: string): Promise<boolean> {
    const proposed = this.store.proposedContent(absPath);
    return proposed !== undefined ? proposed !== null : isFile(absPath);
  }

  readsFromDisk(absPath: string): boolean {
    return this.store.proposedContent(absPath) === undefined;
  }

  async write(absPath: string, content: string): Promise<WriteOutcome> {
    const change = await this.store.propose(absPath, content);
    return { mode: 'proposed', changeId: change.id, kind: change.kind };
  }

  async delete(absPath: string): Promise<WriteOutcome> {
    const change = await this.store.propose(absPath, null);
    return { mode: 'proposed', changeId: change.id, kind: change.kind };
  }

  pendingPaths(): { created: string[]; deleted: string[]; modified: string[] } {
    return this.store.pendingPaths();
  }
}

/** Writes go to disk at once (atomically); `onWritten` gets the workspace-relative path of each written file. */
export class DirectFiles implements WorkspaceFiles {
  readonly root: string;

  constructor(root: string, private readonly onWritten?: (relPath: string) => void) {
    this.root = path.resolve(root);
  }

  readText(absPath: string): Promise<string | null> {
    return readTextOrNull(absPath);
  }

  readBytes(absPath: string, opts: { maxBytes?: number } = {}): Promise<Buffer | null> {
    return readBytesOrNull(absPath, opts.maxBytes);
  }

  exists(absPath: string): Promise<boolean> {
    return isFile(absPath);
  }

  readsFromDisk(): boolean {
    return true;
  }

  async write(absPath: string, content: string): Promise<WriteOutcome> {
    const existed = await isFile(absPath);
    await writeFileAtomic(absPath, content);
    this.onWritten?.(resolveToolPath(this.root, absPath).relative);
    return { mode: 'written', kind: existed ? 'modify' : 'create' };
  }

  async delete(absPath: string): Promise<WriteOutcome> {
    await deleteFileIfExists(absPath);
    this.onWritten?.(resolveToolPath(this.root, absPath).relative);
    return { mode: 'written', kind: 'delete' };
  }

  pendingPaths(): { created: string[]; deleted: string[] } {
    return { created: [], deleted: [] };
  }
}
