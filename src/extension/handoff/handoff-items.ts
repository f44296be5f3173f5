/**
 * The pure parts of the browser handoff commands: the sentence shown after opening a link, and a refused takeover
 * (`attachLatestBrowserHandoff` → `{ attached: false, reason, message }`) as a sentence with a button where one
 * helps. No vscode import (unit-tested).
 */
import type { HandoffFailureReason } from '../../protocol/handoff';

export interface HandoffRefusal {
  message: string;
  button?: { title: string; command: string };
}

/** `time` is the expiry already formatted for the user's locale (e.g. "10:35"). */
export function handoffOpenedMessage(time: string): string {
  return `The chat is open in your browser. The link works once and expires at ${time}; keep this window open while you use it.`;
}

/** The time of an ISO timestamp, hours and minutes in the user's locale (the seconds when it is under a minute away). */
export function expiryTime(expiresAt: string, now: Date = new Date()): string {
  const at = new Date(expiresAt);
  if (Number.isNaN(at.getTime())) return expiresAt;
  const soon = at.getTime() - now.getTime() < 60_000;
  return at.toLocaleTimeString([], soon ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } : { hour: '2-digit', minute: '2-digit' });
}

const AGAIN = 'In the terminal session, hand it off again with /handoff, then try again.';

/** Why the latest terminal session could not be continued here, in plain words. */
export function handoffRefusal(reason: HandoffFailureReason, message: string): HandoffRefusal {
  switch (reason) {
    case 'unknown':
      return { message: 'No terminal session is waiting to be continued here. In the terminal session, use /handoff first, then try again.' };
    case 'expired':
      return { message: `The terminal session's handoff has expired. ${AGAIN}` };
    case 'used':
      return { message: `The terminal session's handoff was already used (each one works once). ${AGAIN}` };
    case 'other_workspace':
      return { message: 'The latest handed-off terminal session belongs to another folder: open that folder in the editor to continue it there.' };
    case 'not_found':
      return { message: 'The handed-off terminal session has nothing saved to continue: nothing was said in it yet, or it is gone.' };
    case 'corrupt':
      return { message: "The handed-off terminal session's saved file cannot be read; the agentcli output has the details.", button: { title: 'Show Output', command: 'agentcli.showOutput' } };
    case 'busy':
      return busyRefusal(message);
  }
}

/** `busy` covers the holder's run, this runtime's run or batch, and a session that is already this one. */
function busyRefusal(message: string): HandoffRefusal {
  if (/waiting for a decision/.test(message)) {
    return { message: 'Proposed changes are waiting for your decision: accept or reject them, then continue the terminal session here.', button: { title: 'Review Changes', command: 'agentcli.reviewChanges' } };
  }
  if (/active in this runtime/.test(message)) {
    return { message: 'The agent is still working here: wait for the run to finish or stop it, then try again.', button: { title: 'Stop', command: 'agentcli.stop' } };
  }
  if (/this runtime's own/.test(message)) return { message: 'That session is already the chat of this editor.' };
  if (/did not answer the release request/.test(message)) {
    return { message: 'The terminal session did not answer when asked to let go of the chat; try again in a moment.' };
  }
  return { message: 'The terminal session is still running a turn; try again when it finishes.' };
}
