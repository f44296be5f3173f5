/** `agentcli --resume <id>` and `--continue`: attach a saved session at startup, or say exactly why not. */
import type { AttachFailureReason } from '../../protocol/records';
import { latestSession } from './history';
import type { AttachOutcome, AttachTarget, SavedSessions } from './saved-sessions';

export class ResumeError extends Error {
  override name = 'ResumeError';
}

const REMEDY: Record<AttachFailureReason, string> = {
  not_found: 'list the saved sessions of this folder with: agentcli sessions list',
  busy: 'another agentcli holds it: close that one first, or start a new session',
  corrupt: 'inspect it with: agentcli sessions show <id>; remove it with: agentcli sessions rm <id>',
  other_workspace: 'run agentcli in the folder it belongs to (agentcli sessions list --all shows it)',
};

export interface SessionAttacher extends AttachTarget {
  readonly saved: SavedSessions | undefined;
  attachSaved(id: string): AttachOutcome;
}

/** Attaches the session the flags name; returns a note for the user (a skipped torn line), throws ResumeError otherwise. */
export function resumeFromFlags(session: SessionAttacher, flags: { resume?: string; continue: boolean }): string | undefined {
  if (flags.resume === undefined && !flags.continue) return undefined;
  const saved = session.saved;
  if (!saved) throw new ResumeError('saved sessions are not available in this runtime');
  const id = flags.resume ?? latestSession(saved.dir, session.cwd);
  if (!id) throw new ResumeError(`no saved session in ${session.cwd} to continue: start one with agentcli (sessions are saved unless sessions.persist is false)`);
  const out = session.attachSaved(id);
  if (!out.attached) throw new ResumeError(`cannot resume ${id}: ${out.message}\n  remedy: ${REMEDY[out.reason]}`);
  const notes = [`resumed session ${id} (${out.messageCount} message(s))`];
  if (out.skippedLines) notes.push('its last line was cut short (the runtime was killed while writing) and was skipped');
  if (out.pendingBatch) notes.push(`${out.pendingBatch.changes.length} proposed file change(s) wait for a decision`);
  if (out.unsavedChanges?.length) notes.push(`proposed changes not saved (they held a secret): ${out.unsavedChanges.join(', ')}`);
  return notes.join('; ');
}
