import path from 'node:path';
import { diffLines } from 'diff';
import type { ChangeContents, ChangeDecision, ChangeKind, ChangeResult, HunkSelection, RecoveredApply } from '../../protocol/records';
import { realPathOf, resolveToolPath } from '../workspace/paths';
import { AppliedBatches } from './applied-batches';
import { applyChanges, type ApplicableChange } from './apply-batch';
import { recoverInterruptedApplies } from './apply-recovery';
import { readTextOrNull } from './atomic-write';
import { defaultStateDir, type JournalEntry } from './journal';
import { removeStaleTempFiles } from './stale-temp-files';
import { ContentsTooLargeError, UnknownIdError } from './errors';
import { chooseHunks, type HunkChoice } from './hunks';
import { uniqueSuffix } from '../unique-id';
import { contentsOf, summarizeChange, utf8Bytes, type BatchUpdate, type StoredBatch, type StoredChange } from './stored';

export interface ChangeBatchStoreOptions {
  root: string;
  newId?: () => string;
  /** Folder of the apply journal (default `~/.agentcli/state`). */
  stateDir?: string;
  /** Delay before the stale temp file sweep after recovery (default 500 ms; the sweep never holds the process). */
  sweepDelayMs?: number;
}

/** Lines added and removed between two versions of a file. */
export function countLineChanges(original: string | null, proposed: string | null): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const part of diffLines(original ?? '', proposed ?? '')) {
    if (part.added) additions += part.count;
    else if (part.removed) deletions += part.count;
  }
  return { additions, deletions };
}

function kindOf(original: string | null, proposed: string | null): ChangeKind {
  if (original === null) return 'create';
  return proposed === null ? 'delete' : 'modify';
}

/** Bytes a content takes inside a JSON message (escapes counted): what bounds an answer to the host's line limit. */
const jsonBytes = (text: string | null): number => (text === null ? 4 : Buffer.byteLength(JSON.stringify(text), 'utf8'));

function snapshot(batch: StoredBatch): StoredBatch {
  return { ...batch, changes: batch.changes.map((c) => ({ ...c })) };
}

/**
 * The run's proposed file changes. Writes made by tools become changes of the open batch (nothing touches disk);
 * when the run ends the batch is finalized (pending) and the host decides which changes to apply.
 */
export class ChangeBatchStore {
  readonly root: string;
  /** A proposal changed the open batch: only the entries it touched, never the whole batch. */
  onUpdate?: (update: BatchUpdate) => void;
  onFileWritten?: (relPath: string, changeId: string) => void;
  /** Batches a killed runtime left were rolled back (or found completed) at this start. */
  onRecovered?: (recovered: RecoveredApply[]) => void;
  /** The applied batches that can be undone (each decision's written files are recorded there). */
  readonly applied: AppliedBatches;

  private readonly newId: () => string;
  private readonly stateDir: string;
  private readonly sweepDelayMs: number;
  private recovery?: Promise<RecoveredApply[]>;
  private openBatch: StoredBatch | null = null;
  private pendingBatch: StoredBatch | null = null;
  /** The batch whose apply is running (decideChanges awaits it); a second decision for it is refused. */
  private deciding: string | undefined;
  /** Serializes proposals so two concurrent edits of one file cannot both read the disk original. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: ChangeBatchStoreOptions) {
    this.root = path.resolve(options.root);
    this.newId = options.newId ?? (() => `chg_${uniqueSuffix()}`);
    this.stateDir = options.stateDir ?? defaultStateDir();
    this.sweepDelayMs = options.sweepDelayMs ?? 500;
    this.applied = new AppliedBatches({ root: this.root, stateDir: this.stateDir });
    // Started at once (one folder read when there is nothing to recover), so even a one-shot run's tools find the
    // workspace rolled back; applies and `initialize` await it.
    void this.recover();
  }

  /**
   * Once per store: rolls back batches that runtimes killed mid-apply left in this workspace's journal (see
   * apply-recovery.ts), then, in the background, removes temp files of dead writers. Awaited before any apply.
   */
  recover(): Promise<RecoveredApply[]> {
    this.recovery ??= recoverInterruptedApplies(realPathOf(this.root), this.stateDir).then(
      ({ recovered, folders, deadPids }) => {
        const sweepNow = () => void removeStaleTempFiles(realPathOf(this.root), folders, { deadPids }).catch(() => undefined);
        const sweep = setTimeout(sweepNow, this.sweepDelayMs);
        sweep.unref();
        if (recovered.length > 0) queueMicrotask(() => this.onRecovered?.(recovered));
        return recovered;
      },
      () => [],
    );
    return this.recovery;
  }

  /**
   * Start the open batch of a run. Does nothing while a batch awaits a decision (returns false), or when the
   * open batch of an earlier run still holds changes (they stay in it, attributed to that run).
   */
  beginRun(runId: string): boolean {
    if (this.pendingBatch) return false;
    if (this.openBatch && this.openBatch.changes.length > 0) return false;
    this.openBatch = { id: this.newId(), runId, status: 'open', changes: [] };
    return true;
  }

  open(): StoredBatch | null {
    return this.openBatch ? snapshot(this.openBatch) : null;
  }

  pending(): StoredBatch | null {
    return this.pendingBatch ? snapshot(this.pendingBatch) : null;
  }

  /**
   * Makes a saved session's undecided batch the pending one again (attachSession). Only when no batch is open or
   * pending; applying it later checks each file against its saved original as usual (stale when changed since).
   */
  restorePending(batch: StoredBatch): boolean {
    if (this.pendingBatch || (this.openBatch && this.openBatch.changes.length > 0)) return false;
    this.openBatch = null;
    this.pendingBatch = snapshot({ ...batch, status: 'pending' });
    return true;
  }

  /** Close the open batch for review. A batch without changes is dropped (returns null). */
  finalize(): StoredBatch | null {
    const batch = this.openBatch;
    this.openBatch = null;
    if (!batch || batch.changes.length === 0) return null;
    batch.status = 'pending';
    this.pendingBatch = batch;
    return snapshot(batch);
  }

  /** Proposed content of a path: a string, null when the proposal deletes it, undefined when there is none. */
  proposedContent(absPath: string): string | null | undefined {
    const key = path.resolve(absPath);
    for (const batch of [this.openBatch, this.pendingBatch]) {
      const change = batch?.changes.find((c) => c.absolutePath === key);
      if (change) return change.proposedContent;
    }
    return undefined;
  }

  /** Absolute paths created, deleted and modified by open or pending proposals. */
  pendingPaths(): { created: string[]; deleted: string[]; modified: string[] } {
    const lists = { create: [] as string[], delete: [] as string[], modify: [] as string[] };
    for (const batch of [this.openBatch, this.pendingBatch]) {
      for (const change of batch?.changes ?? []) lists[change.kind].push(change.absolutePath);
    }
    return { created: lists.create, deleted: lists.delete, modified: lists.modify };
  }

  /**
   * Record that `absPath` should hold `proposed` (null = delete it). Repeated edits of one file merge into one change
   * that keeps the first disk original. A change that ends up equal to the original (e.g. create then delete) is removed.
   */
  propose(absPath: string, proposed: string | null): Promise<StoredChange> {
    const result = this.queue.then(() => this.proposeNow(path.resolve(absPath), proposed));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async proposeNow(absPath: string, proposed: string | null): Promise<StoredChange> {
    const batch = this.openBatch ?? this.openImplicitly();
    const index = batch.changes.findIndex((c) => c.absolutePath === absPath);
    const existing = index >= 0 ? batch.changes[index] : undefined;
    const originalContent = existing ? existing.originalContent : await readTextOrNull(absPath);
    const sameContent = existing !== undefined && existing.proposedContent === proposed;
    const change: StoredChange = {
      id: existing?.id ?? this.newId(),
      path: resolveToolPath(this.root, absPath).relative,
      absolutePath: absPath,
      kind: kindOf(originalContent, proposed),
      originalContent,
      proposedContent: proposed,
      ...countLineChanges(originalContent, proposed),
      revision: existing ? existing.revision + (sameContent ? 0 : 1) : 1,
      originalBytes: existing ? existing.originalBytes : utf8Bytes(originalContent),
      proposedBytes: utf8Bytes(proposed),
    };
    const isNoOp = originalContent === proposed;
    if (isNoOp) {
      if (index >= 0) batch.changes.splice(index, 1);
    } else if (index >= 0) {
      batch.changes[index] = change;
    } else {
      batch.changes.push(change);
    }
    // Only what changed is reported: an edit that wrote what was already proposed reports nothing.
    if (isNoOp ? existing : !sameContent) {
      this.onUpdate?.({
        batchId: batch.id,
        runId: batch.runId,
        changes: isNoOp ? [] : [summarizeChange(change)],
        removed: isNoOp && existing ? [existing.id] : [],
        fileCount: batch.changes.length,
      });
    }
    return { ...change };
  }

  private openImplicitly(): StoredBatch {
    if (this.pendingBatch) {
      throw new Error(
        `change batch ${this.pendingBatch.id} is awaiting a decision; accept or reject it before proposing new changes`,
      );
    }
    const batch: StoredBatch = { id: this.newId(), runId: '', status: 'open', changes: [] };
    this.openBatch = batch;
    return batch;
  }

  /**
   * Both sides of changes of the open or pending batch `batchId`: all of them, or those of `changeIds` in that order.
   * At most `maxBytes` of contents (as JSON, escapes counted) are returned, and always at least one change; the ids left out, from the first that
   * did not fit on, are listed in `omitted` for the host to ask again. A change larger than `maxChangeBytes` on its own
   * cannot travel in one message: ContentsTooLargeError names it.
   */
  contents(
    batchId: string,
    changeIds: string[] | undefined,
    maxBytes: number,
    maxChangeBytes = Number.POSITIVE_INFINITY,
  ): { contents: ChangeContents[]; omitted: string[] } {
    const batch = [this.openBatch, this.pendingBatch].find((b) => b?.id === batchId);
    if (!batch) {
      const known = [this.openBatch, this.pendingBatch].filter((b) => b !== null).map((b) => `${b.id} (${b.status})`);
      const hint = known.length ? `the current batch is ${known.join(' and ')}` : 'no batch is open or pending';
      throw new UnknownIdError(`unknown change batch id ${batchId} (decided batches keep no contents): ${hint}`);
    }
    const byId = new Map(batch.changes.map((c) => [c.id, c]));
    const chosen = (changeIds ? [...new Set(changeIds)] : batch.changes.map((c) => c.id)).map((id) => {
      const c = byId.get(id);
      if (!c) throw new UnknownIdError(`unknown change id ${id} in batch ${batch.id}: known ids are ${[...byId.keys()].join(', ') || 'none'}`);
      return c;
    });
    const contents: ChangeContents[] = [];
    const omitted: string[] = [];
    let used = 0;
    for (const c of chosen) {
      const size = jsonBytes(c.originalContent) + jsonBytes(c.proposedContent);
      if (omitted.length > 0 || (contents.length > 0 && used + size > maxBytes)) {
        omitted.push(c.id);
        continue;
      }
      if (size > maxChangeBytes) {
        const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
        throw new ContentsTooLargeError(
          `change ${c.id} (${c.path}) is ${mib(size)} as JSON, more than one message may carry (${mib(maxChangeBytes)}): ` +
            'ask for the other changes by id; this one can be decided without its diff, or reviewed in a terminal (agentcli --patch)',
        );
      }
      contents.push(contentsOf(c));
      used += size;
    }
    return { contents, omitted };
  }

  /**
   * Apply the host's decision to the pending batch. Accepted changes are written atomically per file after checking
   * that the file on disk still equals the change's original (otherwise `stale`, nothing written). A change named in
   * `hunks` is written as its original with only the chosen hunks applied (none chosen: rejected); its result says which.
   */
  async decide(batchId: string, decision: ChangeDecision, changeIds?: string[], hunks?: HunkSelection): Promise<ChangeResult[]> {
    await this.recover();
    const batch = this.pendingBatch;
    if (!batch || batch.id !== batchId) {
      if (this.openBatch?.id === batchId) {
        throw new UnknownIdError(`change batch ${batchId} is still open (its run has not finished); decide it once it is pending`);
      }
      const hint = batch ? `the pending batch is ${batch.id}` : 'no batch is pending';
      throw new UnknownIdError(`unknown change batch id ${batchId}: ${hint}`);
    }
    if (this.deciding === batch.id) throw new UnknownIdError(`change batch ${batch.id} is already being decided`);
    const accepted = this.acceptedIds(batch, decision, changeIds);
    const choices = hunks ? chooseHunks(batch.changes, accepted, hunks) : new Map<string, HunkChoice>();
    const toApply = batch.changes
      .filter((c) => accepted.has(c.id) && choices.get(c.id)?.applied.length !== 0)
      .map((c): ApplicableChange => {
        const choice = choices.get(c.id);
        return choice ? { ...c, proposedContent: choice.content } : c;
      });
    // The batch stays pending until its files are written: a prompt or the next auto-mode iteration must not start
    // (and read the old contents) while the apply is still running.
    this.deciding = batch.id;
    let applied;
    const written: JournalEntry[] = [];
    try {
      applied = await applyChanges(
        batch.id,
        toApply,
        {
          root: this.root,
          stateDir: this.stateDir,
          onFileWritten: (c, entry) => {
            written.push(entry);
            this.onFileWritten?.(c.path, c.id);
          },
        },
      );
    } finally {
      this.deciding = undefined;
      this.pendingBatch = null;
    }
    const results = batch.changes.map((c): ChangeResult => {
      const result = applied.get(c.id) ?? { changeId: c.id, path: c.path, status: 'rejected' };
      const choice = choices.get(c.id);
      if (!choice) return result;
      return { ...result, hunks: { applied: result.status === 'applied' ? choice.applied : [], total: choice.total } };
    });
    batch.status = 'decided';
    await this.applied.record(batch.id, batch.runId, written);
    return results;
  }

  private acceptedIds(batch: StoredBatch, decision: ChangeDecision, changeIds: string[] | undefined): Set<string> {
    if (decision === 'accept_all') return new Set(batch.changes.map((c) => c.id));
    if (decision === 'reject_all') return new Set();
    if (!changeIds) throw new UnknownIdError('accept_selected needs changeIds: the ids of the changes to apply');
    const known = new Set(batch.changes.map((c) => c.id));
    for (const id of changeIds) {
      if (!known.has(id)) {
        throw new UnknownIdError(`unknown change id ${id} in batch ${batch.id}: known ids are ${[...known].join(', ')}`);
      }
    }
    return new Set(changeIds);
  }
}
