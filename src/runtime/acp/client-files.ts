/**
 * The file layer of an ACP session. Edits apply directly once permitted (no change batch: the client reviews edits in
 * its own diff view), and every write is recorded with its old and new text so the tool call's update carries a diff.
 * When the client offers `fs/read_text_file` / `fs/write_text_file`, text goes through the client, so its unsaved
 * buffers are what the agent reads and its own review and undo apply to what the agent writes. Existence, sizes,
 * binary files and deletes stay on the disk (ACP has no call for them).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { looksBinary } from '../tools/read-file';
import { DirectFiles } from '../workspace/files';
import { resolveToolPath } from '../workspace/paths';
import type { WorkspaceFiles, WriteOutcome } from '../workspace/types';

/** The client's file calls this session may use (each present only when the client offers it). */
export interface ClientFileAccess {
  readText?(absPath: string): Promise<string>;
  writeText?(absPath: string, content: string): Promise<void>;
}

/** One applied write: `oldText` null for a file created, `newText` null for a file deleted. */
export interface WriteRecord {
  path: string;
  oldText: string | null;
  newText: string | null;
}

export class ClientFileError extends Error {
  constructor(action: string, absPath: string, cause: unknown) {
    super(`the editor could not ${action} ${absPath}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'ClientFileError';
  }
}

export class AcpFiles implements WorkspaceFiles {
  readonly root: string;
  private readonly disk: DirectFiles;

  constructor(
    root: string,
    private readonly client: ClientFileAccess,
    private readonly onWrite: (record: WriteRecord) => void,
    private readonly onModified: (relPath: string) => void,
  ) {
    this.disk = new DirectFiles(root, onModified);
    this.root = this.disk.root;
  }

  private async clientRead(absPath: string): Promise<string> {
    try {
      return await this.client.readText!(absPath);
    } catch (e) {
      throw new ClientFileError('read', absPath, e);
    }
  }

  async readText(absPath: string): Promise<string | null> {
    if (!this.client.readText || !(await this.disk.exists(absPath))) return this.disk.readText(absPath);
    return this.clientRead(absPath);
  }

  async readBytes(absPath: string, opts: { maxBytes?: number } = {}): Promise<Buffer | null> {
    const bytes = await this.disk.readBytes(absPath, opts); // size check and binary sniff on the disk
    if (bytes === null || !this.client.readText || looksBinary(bytes)) return bytes;
    return Buffer.from(await this.clientRead(absPath), 'utf8');
  }

  exists(absPath: string): Promise<boolean> {
    return this.disk.exists(absPath);
  }

  /** Text comes from the editor (its unsaved buffers) when it offers reads; else from the disk. */
  readsFromDisk(): boolean {
    return !this.client.readText;
  }

  async write(absPath: string, content: string): Promise<WriteOutcome> {
    const oldText = await this.readText(absPath);
    let outcome: WriteOutcome;
    if (this.client.writeText) {
      await fs.mkdir(path.dirname(absPath), { recursive: true });
      try {
        await this.client.writeText(absPath, content);
      } catch (e) {
        throw new ClientFileError('write', absPath, e);
      }
      this.onModified(resolveToolPath(this.root, absPath).relative);
      outcome = { mode: 'written', kind: oldText === null ? 'create' : 'modify' };
    } else {
      outcome = await this.disk.write(absPath, content);
    }
    this.onWrite({ path: absPath, oldText, newText: content });
    return outcome;
  }

  async delete(absPath: string): Promise<WriteOutcome> {
    const oldText = await this.readText(absPath);
    const outcome = await this.disk.delete(absPath);
    this.onWrite({ path: absPath, oldText, newText: null });
    return outcome;
  }

  pendingPaths(): { created: string[]; deleted: string[] } {
    return { created: [], deleted: [] };
  }
}
