/** How a session's applied batches are kept for undo: saved next to the session, secrets and protected paths as the session judges them. */
import type { AppliedBatches } from '../changes/applied-batches';
import { protectedReason } from '../permissions/protected-paths';
import type { SecretMasker } from '../secrets/masker';
import type { SavedSessions } from '../sessions/saved-sessions';

/** What the policy reads of the session (read at each use: the id, masker and saved sessions change over time). */
export interface UndoSessionParts {
  readonly id: string;
  readonly cwd: string;
  readonly homeDir: string | undefined;
  readonly secrets: SecretMasker;
  readonly saved: SavedSessions | undefined;
}

export function wireUndo(applied: AppliedBatches, session: UndoSessionParts, notice: (line: string) => void): void {
  applied.policy = {
    holdsSecret: (text) => session.secrets.mask(text) !== text,
    protectedReason: (abs) => protectedReason(abs, { cwd: session.cwd, ...(session.homeDir ? { home: session.homeDir } : {}) }),
    save: (records) => session.saved?.saveApplied(session.id, records) ?? Promise.resolve(),
  };
  applied.onSaveFailed = notice;
}
