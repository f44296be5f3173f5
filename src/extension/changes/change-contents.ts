/**
 * Contents of the pending change batch, fetched from the runtime (`getChangeContents`) when a diff needs them and
 * kept per change and revision: batch events carry summaries only. The pending batch's contents are also fetched as
 * soon as it waits for a decision, so that the editor can still apply it if the runtime dies (local-apply.ts).
 * No `vscode` import.
 */
import type { ChangeBatch, ChangeContents } from '../../protocol/records';

/** One `getChangeContents` answer: the contents it carried and the ids it left out (to ask again). */
export type FetchContents = (batchId: string, changeIds: string[]) => Promise<{ contents: ChangeContents[]; omitted: string[] }>;

export class ChangeContentsCache {
  private batch: ChangeBatch | undefined;
  private readonly held = new Map<string, ChangeContents>();
  /** Fetches under way, per change id and revision, so that two diff sides opened together ask once. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly fetch: FetchContents) {}

  get current(): ChangeBatch | undefined {
    return this.batch;
  }

  /**
   * Follows the batch (summaries). Contents of an older revision are dropped; returns the ids of changes whose
   * revision moved, whose open documents must be refreshed.
   */
  setBatch(batch: ChangeBatch): string[] {
    const same = this.batch?.id === batch.id;
    const before = new Map(same ? this.batch!.changes.map((c) => [c.id, c.revision]) : []);
    if (!same) this.clear();
    this.batch = batch;
    const live = new Map(batch.changes.map((c) => [c.id, c.revision]));
    for (const [id, contents] of this.held) {
      const revision = live.get(id);
      if (revision === undefined || contents.revision < revision) this.held.delete(id);
    }
    return batch.changes.filter((c) => before.has(c.id) && before.get(c.id) !== c.revision).map((c) => c.id);
  }

  clear(): void {
    this.batch = undefined;
    this.held.clear();
    this.loading.clear();
  }

  /** Contents of one change of the current batch at its current revision; undefined when it is not part of it. */
  async get(batchId: string, changeId: string): Promise<ChangeContents | undefined> {
    const change = this.batch?.id === batchId ? this.batch.changes.find((c) => c.id === changeId) : undefined;
    if (!change) return undefined;
    const usable = () => {
      const h = this.held.get(changeId);
      return h && h.revision >= change.revision ? h : undefined;
    };
    if (!usable()) await this.load(batchId, [changeId], change.revision);
    return usable();
  }

  /** Fetches the contents of every change of the current batch not held yet (the runtime answers in bounded parts). */
  async prefetch(): Promise<void> {
    const b = this.batch;
    if (!b) return;
    const missing = b.changes.filter((c) => (this.held.get(c.id)?.revision ?? 0) < c.revision).map((c) => c.id);
    if (missing.length > 0) await this.fetchAll(b.id, missing);
  }

  /** The contents held for batch `batchId` at each change's current revision (what a local apply can write). */
  heldFor(batchId: string): ReadonlyMap<string, ChangeContents> {
    const out = new Map<string, ChangeContents>();
    if (this.batch?.id !== batchId) return out;
    for (const c of this.batch.changes) {
      const h = this.held.get(c.id);
      if (h && h.revision === c.revision) out.set(c.id, h);
    }
    return out;
  }

  private load(batchId: string, ids: string[], revision: number): Promise<void> {
    const key = `${ids.join(',')}@${revision}`;
    let p = this.loading.get(key);
    if (!p) {
      p = this.fetchAll(batchId, ids).finally(() => this.loading.delete(key));
      this.loading.set(key, p);
    }
    return p;
  }

  private async fetchAll(batchId: string, ids: string[]): Promise<void> {
    let rest = ids;
    while (rest.length > 0) {
      const { contents, omitted } = await this.fetch(batchId, rest);
      for (const c of contents) this.keep(batchId, c);
      if (contents.length === 0) throw new Error(`the runtime returned no contents for ${omitted.length} change(s) of batch ${batchId}`);
      rest = omitted;
    }
  }

  /** Keeps fetched contents while they belong to the current batch and are not older than what is held. */
  private keep(batchId: string, c: ChangeContents): void {
    if (this.batch?.id !== batchId || !this.batch.changes.some((x) => x.id === c.changeId)) return;
    const held = this.held.get(c.changeId);
    if (!held || held.revision <= c.revision) this.held.set(c.changeId, c);
  }
}
