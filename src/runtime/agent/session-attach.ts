import { RpcErrorCode } from '../../protocol/errors';
import type { ChangeBatchStore } from '../changes';
import type { AttachOutcome, AttachTarget, SavedSessions } from '../sessions/saved-sessions';
import { RuntimeRequestError } from './errors';
import type { ActiveRun } from './session-options';

/** A live session that can continue a saved one. */
export interface AttachingSession extends AttachTarget {
  readonly running: ActiveRun | undefined;
  readonly store: ChangeBatchStore;
  readonly saved: SavedSessions | undefined;
}

/** Continues a saved session (attachSession); refused while a run is active or a change batch awaits a decision. */
export function attachSavedSession(session: AttachingSession, sessionId: string): AttachOutcome {
  const active = session.running;
  if (active) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, `abort run ${active.runId} before attaching a saved session`);
  const batch = session.store.pending() ?? session.store.open();
  if (batch && batch.changes.length > 0 && sessionId !== session.id) {
    throw new RuntimeRequestError(
      RpcErrorCode.BatchPending,
      `change batch ${batch.id} (${batch.changes.length} file(s)) is waiting for a decision: call decideChanges before attaching another session`,
    );
  }
  if (!session.saved) return { attached: false, reason: 'not_found', message: 'this runtime reads no saved sessions' };
  return session.saved.attach(session, sessionId);
}
