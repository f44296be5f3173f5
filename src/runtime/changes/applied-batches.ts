/**
 * The applied change batches of a session that can be undone (`listAppliedChanges`, `undoChanges`). Each applied batch
 * is recorded with what its files held before and after (bounded: MAX_UNDO_BATCHES batches, MAX_UNDO_FILE_BYTES a
 * file side, MAX_UNDO_BATCH_BYTES a batch, MAX_UNDO_SESSION_BYTES in all; a file whose contents hold a secret is never
 * kept); undoing reverts its files through the apply path (undo-batch.ts). A file is reverted at most once.
 */
import type { AppliedBatch, UndoFileResult } from '../../protocol/undo';
import { UnknownIdError } from './errors';
import { utf8Bytes } from './stored';
import { MAX_UNDO_BATCH_BYTES, MAX_UNDO_BATCHES, MAX_UNDO_FILE_BYTES, MAX_UNDO_SESSION_BYTES } from '../../protocol/undo-limits';
import { keptBytes, summarizeApplied, type AppliedBatchRecord, type AppliedFileRecord } from './applied-records';
import type { JournalEntry } from './journal';
import { revertFiles } from './undo-batch';

/** A path in `undoChanges.paths` that is not a file of the batch (the request is invalid, nothing was reverted). */
export class UndoPathError extends Error {
  override name = 'UndoPathError';
}

/** An undo while another one runs. */
export class UndoBusyError extends Error {
  override name = 'UndoBusyError';
}

export interface UndoPolicy {
  /** True when the text holds a secret (a configured key or token): such contents are never kept. */
  holdsSecret(text: string): boolean;
  /** Why writes to this path always ask (protected-paths.ts), or undefined. */
  protectedReason(absolutePath: string): string | undefined;
  /** Keeps the records next to the session (resolves when written; may reject). */
  save(records: AppliedBatchRecord[]): Promise<void>;
}

/** One file the apply wrote: its journal entry (content before and after, mode, folders it created). */
type WrittenFile = JournalEntry;

const utf8 = (text: string | null) => utf8Bytes(text) ?? 0;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kindOf = (w: WrittenFile) => (w.original === null ? 'create' : w.proposed === null ? 'delete' : 'modify') as AppliedFileRecord['kind'];

export class AppliedBatches {
  /** Oldest first. */
  private records: AppliedBatchRecord[] = [];
  private undoing = false;
  policy: UndoPolicy = { holdsSecret: () => false, protectedReason: () => undefined, save: () => Promise.resolve() };
  /** Called when saving failed (the records stay in memory). */
  onSaveFailed?: (message: string) => void;

  constructor(private readonly opts: { root: string; stateDir: string }) {}

  /** An undo is writing files (a run must not start and read them half reverted). */
  get busy(): boolean {
    return this.undoing;
  }

  /** Newest first. */
  list(): AppliedBatch[] {
    return [...this.records].reverse().map(summarizeApplied);
  }

  /** The records of a continued session (attach), or none (a new conversation). Nothing is saved. */
  replace(records: AppliedBatchRecord[]): void {
    this.records = records.slice(-MAX_UNDO_BATCHES);
  }

  /** Keeps what batch `batchId` wrote, within the limits; a file past them is kept as not undoable with the reason. */
  async record(batchId: string, runId: string, written: WrittenFile[]): Promise<void> {
    if (written.length === 0) return;
    let kept = 0;
    const files = written.map((w): AppliedFileRecord => {
      const base = { changeId: w.changeId, path: w.path, absolutePath: w.absolutePath, kind: kindOf(w), createdDirs: w.createdDirs, ...(w.mode === undefined ? {} : { mode: w.mode }) };
      const size = utf8(w.original) + utf8(w.proposed);
      const reason = this.whyNotKept(w, kept + size);
      if (reason) return { ...base, state: 'not_undoable', reason, before: null, after: null };
      kept += size;
      return { ...base, state: 'undoable', before: w.original, after: w.proposed };
    });
    this.records.push({ batchId, runId, appliedAt: new Date().toISOString(), files });
    this.records = this.records.slice(-MAX_UNDO_BATCHES);
    let total = this.records.reduce((n, r) => n + keptBytes(r), 0);
    while (this.records.length > 1 && total > MAX_UNDO_SESSION_BYTES) total -= keptBytes(this.records.shift()!);
    await this.save();
  }

  private whyNotKept(w: WrittenFile, batchBytes: number): string | undefined {
    const secret = [w.original, w.proposed].some((t) => t !== null && this.policy.holdsSecret(t));
    if (secret) return `${w.path} holds a secret (a configured key or token), which is never saved, so it cannot be undone`;
    const largest = Math.max(utf8(w.original), utf8(w.proposed));
    if (largest > MAX_UNDO_FILE_BYTES) return `${w.path} is too large to keep for undo (${mib(largest)}; the limit is ${mib(MAX_UNDO_FILE_BYTES)} a file)`;
    if (batchBytes > MAX_UNDO_BATCH_BYTES) return `the batch is too large to keep whole for undo (over ${mib(MAX_UNDO_BATCH_BYTES)}), so ${w.path} cannot be undone`;
    return undefined;
  }

  /**
   * Reverts the undoable files of batch `batchId` (default: the newest with one left), or those of `paths`. Throws
   * UnknownIdError (no such batch, nothing left to undo), UndoPathError (a path not in the batch), UndoBusyError.
   */
  async undo(req: { batchId?: string; paths?: string[] }): Promise<{ batchId: string; results: UndoFileResult[] }> {
    if (this.undoing) throw new UndoBusyError('an undo is already running: wait for its changes_reverted event');
    const record = this.pick(req.batchId);
    const chosen = this.choose(record, req.paths);
    if (chosen.every((f) => f.state === 'undone')) {
      const what = req.paths ? `the chosen files of change batch ${record.batchId} were` : `change batch ${record.batchId} was`;
      throw new UnknownIdError(`${what} already undone: a file is undone once`);
    }
    const results = new Map<string, UndoFileResult>();
    const toRevert: AppliedFileRecord[] = [];
    for (const f of chosen) {
      const base = { changeId: f.changeId, path: f.path };
      const protectedWhy = req.paths ? undefined : this.policy.protectedReason(f.absolutePath);
      if (f.state === 'undone') results.set(f.changeId, { ...base, status: 'skipped', reason: `${f.path} was already undone` });
      else if (f.state === 'not_undoable') results.set(f.changeId, { ...base, status: 'skipped', reason: f.reason ?? `${f.path} cannot be undone` });
      else if (protectedWhy) results.set(f.changeId, { ...base, status: 'skipped', reason: `${f.path} is protected (${protectedWhy}): name it to undo it` });
      else toRevert.push(f);
    }
    this.undoing = true;
    try {
      const reverted = await revertFiles(record.batchId, toRevert, this.opts);
      for (const r of reverted) results.set(r.changeId, r);
      for (const f of toRevert) if (results.get(f.changeId)?.status === 'reverted') f.state = 'undone';
      if (reverted.some((r) => r.status === 'reverted')) await this.save();
    } finally {
      this.undoing = false;
    }
    return { batchId: record.batchId, results: chosen.map((f) => results.get(f.changeId)!) };
  }

  private pick(batchId: string | undefined): AppliedBatchRecord {
    const undoable = (r: AppliedBatchRecord) => r.files.some((f) => f.state === 'undoable');
    if (batchId === undefined) {
      const newest = [...this.records].reverse().find(undoable);
      if (!newest) throw new UnknownIdError('nothing to undo: no change batch applied in this session can still be undone');
      return newest;
    }
    const record = this.records.find((r) => r.batchId === batchId);
    if (!record) {
      const kept = this.records.filter(undoable).map((r) => r.batchId);
      const hint = kept.length ? `the ones that can be undone are ${kept.reverse().join(', ')}` : 'none can be undone';
      throw new UnknownIdError(`no applied change batch ${batchId} is kept for undo in this session (only its last ${MAX_UNDO_BATCHES} are): ${hint}`);
    }
    if (record.files.every((f) => f.state === 'undone')) throw new UnknownIdError(`change batch ${batchId} was already undone: a batch is undone once`);
    if (!undoable(record)) {
      const why = record.files.filter((f) => f.state === 'not_undoable').map((f) => f.reason ?? f.path);
      throw new UnknownIdError(`change batch ${batchId} has no file left to undo: ${why.join('; ') || 'every file was undone'}`);
    }
    return record;
  }

  private choose(record: AppliedBatchRecord, paths: string[] | undefined): AppliedFileRecord[] {
    if (!paths) return record.files;
    const byPath = new Map(record.files.map((f) => [f.path, f]));
    const chosen = new Set<AppliedFileRecord>();
    paths.forEach((p, i) => {
      const f = byPath.get(p.replace(/^\.\//, ''));
      if (!f) {
        throw new UndoPathError(`paths[${i}]: "${p}" is not a file of change batch ${record.batchId}; its files are ${[...byPath.keys()].join(', ')}`);
      }
      chosen.add(f);
    });
    return record.files.filter((f) => chosen.has(f));
  }

  private async save(): Promise<void> {
    try {
      await this.policy.save(this.records);
    } catch (e) {
      this.onSaveFailed?.(`could not save what the applied changes can undo: ${(e as Error).message}; undo works until the runtime stops`);
    }
  }
}
