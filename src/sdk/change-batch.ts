import type { EventOf } from '../protocol/events';
import { HunkSelection, type ChangeDecision, type ChangeResult } from '../protocol/records';
import type { RuntimeClient } from './client';
import type { RunChange } from './run-change';
import { ChangeBatchCallbackError, InvalidArgumentError, SdkError, errorText } from './errors';

/** The batch a run left when it ended (`change_batch_ready`): its id and changes (`id`, `path`, `kind`, line counts). */
export type ReadyChangeBatch = EventOf<'change_batch_ready'>['batch'];

/**
 * What `onChangeBatch` answers: apply every change, none, or the listed ones; or `undefined` to leave the batch
 * undecided and decide it later with `agent.decideChanges` (the next prompt is refused with `BatchPendingError` until then).
 * `hunks` (change id → indexes into `getChangeContents(...).contents[i].hunks`) applies only those hunks of a modified
 * file; a change listed with no hunk is rejected.
 */
export type ChangeBatchDecision =
  | 'accept_all'
  | 'reject_all'
  | { decision: 'accept_all'; hunks: HunkSelection }
  | { decision: 'accept_selected'; changeIds: readonly string[]; hunks?: HunkSelection }
  | undefined;

type CheckedDecision = { decision: ChangeDecision; changeIds?: string[]; hunks?: HunkSelection };

export type ChangeBatchCallback = (batch: ReadyChangeBatch) => ChangeBatchDecision | Promise<ChangeBatchDecision>;

export type { ChangeOutcome, RunChange } from './run-change';

/** Checks an `onChangeBatch` answer against the batch; throws `InvalidArgumentError` naming what is wrong. */
export function checkDecision(
  answer: unknown,
  batch: ReadyChangeBatch,
): CheckedDecision | undefined {
  if (answer === undefined) return undefined;
  if (answer === 'accept_all' || answer === 'reject_all') return { decision: answer };
  const hint = `answer 'accept_all', 'reject_all', { decision: 'accept_selected', changeIds: [...], hunks? }, { decision: 'accept_all', hunks } or undefined`;
  const decision = typeof answer === 'object' && answer !== null ? (answer as { decision?: unknown }).decision : undefined;
  if (decision !== 'accept_selected' && decision !== 'accept_all') {
    throw new InvalidArgumentError(`onChangeBatch returned ${describe(answer)}; ${hint}`);
  }
  const hunks = checkHunks((answer as { hunks?: unknown }).hunks, batch);
  if (decision === 'accept_all') {
    if (!hunks) throw new InvalidArgumentError(`onChangeBatch: { decision: 'accept_all' } needs hunks; ${hint}`);
    return { decision, hunks };
  }
  const ids = (answer as { changeIds?: unknown }).changeIds;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
    throw new InvalidArgumentError(`onChangeBatch: accept_selected needs changeIds, a non-empty array of change ids of batch ${batch.id}`);
  }
  const known = new Set(batch.changes.map((c) => c.id));
  const unknown = (ids as string[]).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      `onChangeBatch: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a change' : 'are not changes'} of batch ${batch.id} (its ids: ${[...known].join(', ')})`,
    );
  }
  return { decision: 'accept_selected', changeIds: [...new Set(ids as string[])], ...(hunks ? { hunks } : {}) };
}

/** An answer's `hunks`, checked for shape and change ids (the runtime checks the hunk indexes against the files). */
function checkHunks(value: unknown, batch: ReadyChangeBatch): HunkSelection | undefined {
  if (value === undefined) return undefined;
  const parsed = HunkSelection.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `hunks${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`).join('; ');
    throw new InvalidArgumentError(`onChangeBatch: ${issues} (hunks maps a change id to the indexes of the hunks to apply)`);
  }
  const known = new Set(batch.changes.map((c) => c.id));
  const unknown = Object.keys(parsed.data).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`onChangeBatch: hunks names ${unknown.join(', ')}, not a change of batch ${batch.id} (its ids: ${[...known].join(', ')})`);
  }
  return parsed.data;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** Every change of the batch with its outcome: from the apply results, else `undecided`. */
export function changesOf(batch: ReadyChangeBatch, results: readonly ChangeResult[] = []): RunChange[] {
  const byId = new Map(results.map((r) => [r.changeId, r]));
  return batch.changes.map((c): RunChange => {
    const r = byId.get(c.id);
    const change: RunChange = { id: c.id, batchId: batch.id, path: c.path, kind: c.kind, outcome: r?.status ?? 'undecided' };
    if (r?.error !== undefined) change.error = r.error;
    if (r?.hunks !== undefined) change.hunks = r.hunks;
    return change;
  });
}

export interface BatchSettlement {
  changes: RunChange[];
  /** Host code failed (the callback threw or answered wrongly, or the decision could not be sent). */
  error?: Error;
}

/**
 * Decides the batch a run left: the callback when there is one (a throw or an invalid answer rejects the batch and is
 * reported); else, when the runtime's permission mode is `unrestricted`, `accept_all` (everything in it was approved,
 * as with the CLI's `--yolo`) or, for an aborted run, `reject_all` (as `--patch --yolo` applies nothing of an aborted
 * run, and so the next prompt can start); else nothing (the changes stay `undecided`).
 */
export async function settleBatch(
  client: RuntimeClient,
  batch: ReadyChangeBatch,
  callback: ChangeBatchCallback | undefined,
  aborted: boolean,
): Promise<BatchSettlement> {
  let chosen: CheckedDecision | undefined;
  let error: Error | undefined;
  if (callback) {
    try {
      chosen = checkDecision(await callback(batch), batch);
    } catch (e) {
      error = new ChangeBatchCallbackError(batch.id, e);
      chosen = { decision: 'reject_all' };
    }
  } else {
    try {
      if ((await client.getState()).permissionMode === 'unrestricted') chosen = { decision: aborted ? 'reject_all' : 'accept_all' };
    } catch (e) {
      // The runtime is likely gone; the changes stay undecided and the run reports why.
      return { changes: changesOf(batch), error: asError(e) };
    }
  }
  if (!chosen) return { changes: changesOf(batch) };
  let changes: RunChange[];
  try {
    const { results } = await client.decideChanges({ batchId: batch.id, ...chosen });
    changes = changesOf(batch, results);
  } catch (e) {
    changes = changesOf(batch);
    error ??= asError(e);
  }
  if (error instanceof ChangeBatchCallbackError) error.changes = changes;
  return { changes, ...(error ? { error } : {}) };
}

function asError(e: unknown): Error {
  return e instanceof Error ? e : new SdkError(errorText(e));
}
