/**
 * What the chat history pick and the panel say about saved sessions: relative ages, one row per chat, and one plain sentence per attach failure. Pure (no `vscode` import), so it is unit-tested.
 */
import type { AttachFailureReason, HistoryEntry } from '../../protocol/records';
import { shownModel } from '../models/model-items';

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 days ago", or the date for anything older than a month. */
export function relativeAge(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const s = Math.max(0, Math.round((now - then) / 1000));
  if (s < 60) return 'just now';
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.floor(h / 24);
  if (d === 1) return 'yesterday';
  if (d < 31) return `${d} days ago`;
  return new Date(then).toISOString().slice(0, 10);
}

export interface HistoryRow {
  sessionId: string;
  /** The chat's title (its first prompt); "Untitled chat" when it had none. */
  label: string;
  /** Age and model, e.g. "5 min ago · serviceai/weka", and "current" for the open chat. */
  description: string;
  current: boolean;
}

export function historyRow(entry: HistoryEntry, currentSessionId: string | undefined, now: number): HistoryRow {
  const current = entry.sessionId === currentSessionId;
  const title = entry.title.replace(/\s+/g, ' ').trim();
  const parts = [relativeAge(entry.updatedAt, now), `${entry.provider}/${shownModel(entry.model)}`, `${entry.messageCount} message${entry.messageCount === 1 ? '' : 's'}`];
  if (current) parts.unshift('current');
  return { sessionId: entry.sessionId, label: title === '' ? 'Untitled chat' : title, description: parts.filter((p) => p !== '').join(' · '), current };
}

/** Why a saved chat could not be continued, as the end of "… could not be reopened: <this>." */
export function attachFailureReason(reason: AttachFailureReason): string {
  switch (reason) {
    case 'busy':
      return 'it is open in another window or terminal';
    case 'corrupt':
      return 'its saved file cannot be read';
    case 'not_found':
      return 'it is no longer saved';
    case 'other_workspace':
      return 'it belongs to another folder';
  }
}

/** Why a saved chat was not deleted, as the end of "The chat was not deleted: <this>." */
export function deleteFailureReason(reason: 'not_found' | 'busy' | 'current'): string {
  switch (reason) {
    case 'busy':
      return 'it is open in another window or terminal';
    case 'current':
      return 'it is the chat open in this window (start a new chat first)';
    case 'not_found':
      return 'it is no longer saved';
  }
}
