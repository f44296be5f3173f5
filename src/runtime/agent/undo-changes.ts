/**
 * Undoing applied change batches in a session: the rpc methods `listAppliedChanges` and `undoChanges` (the CLI's
 * `/undo` uses undoInSession too). Where the records are saved and what is a secret: undo-policy.ts.
 */
import { RpcErrorCode } from '../../protocol/errors';
import type { UndoFileResult } from '../../protocol/undo';
import { UndoBusyError, UndoPathError } from '../changes/applied-batches';
import { UnknownIdError } from '../changes/errors';
import type { Handlers } from '../rpc/handler-types';
import { RuntimeRequestError } from './errors';
import type { Session } from './session';

/**
 * Reverts files of an applied batch (see `undoChanges` in protocol/undo.ts) and emits `changes_reverted`. Refused
 * while a run is active or a batch waits for a decision: both read the files the undo would change.
 */
export async function undoInSession(session: Session, req: { batchId?: string; paths?: string[] }): Promise<{ batchId: string; results: UndoFileResult[] }> {
  const run = session.running;
  if (run) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `run ${run.runId} is still active: undo when it has ended (or abort it)`);
  const pending = session.store.pending();
  if (pending) {
    throw new RuntimeRequestError(
      RpcErrorCode.BatchPending,
      `change batch ${pending.id} (${pending.changes.length} file(s)) is waiting for a decision: decide it (decideChanges) before undoing an applied one`,
    );
  }
  let outcome;
  try {
    outcome = await session.store.applied.undo(req);
  } catch (e) {
    if (e instanceof UnknownIdError) throw new RuntimeRequestError(RpcErrorCode.UnknownId, e.message);
    if (e instanceof UndoPathError) throw new RuntimeRequestError(RpcErrorCode.InvalidParams, `invalid params for undoChanges: ${e.message}`);
    if (e instanceof UndoBusyError) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, e.message);
    throw e;
  }
  session.emit({ type: 'changes_reverted', batchId: outcome.batchId, results: outcome.results });
  return outcome;
}

/** The undo methods of the rpc server. */
export function undoHandlers(session: Session): Pick<Handlers, 'listAppliedChanges' | 'undoChanges'> {
  return {
    listAppliedChanges: () => ({ batches: session.store.applied.list() }),
    undoChanges: (p) => undoInSession(session, { ...(p.batchId ? { batchId: p.batchId } : {}), ...(p.paths ? { paths: p.paths } : {}) }),
  };
}
