/**
 * Saved sessions of one runtime: the recorder that writes the current session, and the history, details and attach
 * operations (`getHistory`, `getSession`, `attachSession`) over `~/.agentcli/sessions/`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AttachFailureReason, ChangeBatch, HistoryMessage } from '../../protocol/records';
import type { EventDraft } from '../agent/host';
import { summarizeBatch, type StoredBatch } from '../changes';
import type { Config } from '../config/schema';
import { listHistory, type HistoryPage } from './history';
import { acquireLock, lockedByOther } from './lock';
import { loadApplied, removeApplied, saveApplied } from './applied-file';
import type { AppliedBatchRecord } from '../changes/applied-records';
import { isValidSessionId, lockFile, sessionFile, sessionsDir } from './paths';
import { CorruptSessionError, readSessionFile, type SavedSessionData } from './reader';
import { SessionRecorder, type RecordedSession } from './recorder';
import type { SavedBatch } from './records';
import { SessionRedactor } from './redaction';
import { pruneSessions } from './retention';

/** How long after a session begins its retention pass runs (it runs at close if that comes first). */
const PRUNE_DELAY_MS = 1000;

export interface SavedSessionsOptions {
  home: string;
  cwd: string;
  config: Config;
  env: NodeJS.ProcessEnv;
  warn(line: string): void;
}

/** What attach changes in the session it continues. */
export interface AttachTarget extends RecordedSession {
  restoreSaved(id: string, history: HistoryMessage[], batch: StoredBatch | null): void;
}

export type AttachOutcome =
  | { attached: true; sessionId: string; messageCount: number; pendingBatch: ChangeBatch | null; skippedLines: number; unsavedChanges?: string[] }
  | { attached: false; reason: AttachFailureReason; message: string };

export type LoadOutcome = { ok: true; data: SavedSessionData } | { ok: false; reason: 'not_found' | 'corrupt'; message: string };

const sameFolder = (a: string, b: string): boolean => {
  const real = (p: string) => {
    try {
      return fs.realpathSync.native(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
};

/**
 * Every message an assistant's tool calls need: a call without its result (the runtime was killed while the tool ran)
 * gets one saying so, so the next request is a valid conversation.
 */
export function completeToolResults(messages: HistoryMessage[]): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== 'assistant' || !m.toolCalls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++) answered.add(messages[j]!.toolCallId ?? '');
    const missing = m.toolCalls.filter((c) => !answered.has(c.id));
    if (missing.length === 0) continue;
    // Results that exist come first, then the missing ones.
    while (i + 1 < messages.length && messages[i + 1]!.role === 'tool') out.push(messages[++i]!);
    for (const c of missing) {
      out.push({ role: 'tool', toolCallId: c.id, toolName: c.name, content: 'not run: the session ended before this tool call finished' });
    }
  }
  return out;
}

/** The saved batch's changes that lie in the workspace under the path they name (a hand-edited file cannot aim elsewhere). */
function batchInWorkspace(batch: SavedBatch | null, cwd: string): StoredBatch | null {
  if (!batch) return null;
  const changes = batch.changes.filter((c) => {
    const rel = path.relative(cwd, c.absolutePath);
    return path.isAbsolute(c.absolutePath) && rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && rel.split(path.sep).join('/') === c.path;
  });
  return changes.length > 0 ? { ...batch, status: 'pending', changes } : null;
}

export class SavedSessions {
  readonly dir: string;
  private readonly cwd: string;
  private readonly redactor: SessionRedactor;
  private recorder: SessionRecorder | undefined;
  private config: Config;
  /** The retention pass a new session scheduled (it stats every saved session): run it now, or leave it undefined. */
  private pendingPrune: { timer: NodeJS.Timeout; run: () => void } | undefined;

  constructor(private readonly opts: SavedSessionsOptions) {
    this.dir = sessionsDir(opts.home);
    this.cwd = opts.cwd;
    this.config = opts.config;
    this.redactor = new SessionRedactor(opts.config, opts.env);
    this.configure(opts.config);
  }

  /** New settings: secrets to mask, `sessions.persist` and the retention limits. */
  configure(config: Config): void {
    this.config = config;
    this.redactor.update(config);
    if (config.sessions.persist && !this.recorder) {
      this.recorder = new SessionRecorder({
        dir: this.dir,
        redactor: this.redactor,
        warn: this.opts.warn,
        onCreated: (id) => this.schedulePrune(id),
      });
    } else if (!config.sessions.persist && this.recorder) {
      this.recorder.close();
      this.recorder = undefined;
    }
  }

  get persist(): boolean {
    return this.recorder !== undefined;
  }

  observe(session: RecordedSession, draft: EventDraft): void {
    this.recorder?.observe(session, draft);
  }

  close(): void {
    this.flushPrune();
    this.recorder?.close();
  }

  history(q: { page: number; pageSize: number; cwd?: string; allWorkspaces?: boolean }): HistoryPage {
    this.recorder?.makeUnmade(); // a session begun in this task is listed
    this.flushPrune(); // a listing never shows what retention is about to remove
    return listHistory(this.dir, { page: q.page, pageSize: q.pageSize, cwd: q.allWorkspaces ? undefined : (q.cwd ?? this.cwd) });
  }

  load(id: string): LoadOutcome {
    this.recorder?.makeUnmade();
    this.flushPrune(); // what is attached is not removed by a retention pass still to come
    if (!isValidSessionId(id)) return { ok: false, reason: 'not_found', message: `no saved session "${id}" (not a session id)` };
    const file = sessionFile(this.dir, id);
    try {
      const data = readSessionFile(file);
      if (data.meta.sessionId !== id) return { ok: false, reason: 'corrupt', message: `${file} names another session (${data.meta.sessionId})` };
      return { ok: true, data };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'not_found', message: `no saved session "${id}" in ${this.dir}` };
      if (e instanceof CorruptSessionError) return { ok: false, reason: 'corrupt', message: `saved session "${id}" cannot be read: ${e.message}` };
      return { ok: false, reason: 'corrupt', message: `saved session "${id}" cannot be read: ${(e as Error).message}` };
    }
  }

  /** Continues saved session `id` in `session`: exactly that id or a typed failure. */
  attach(session: AttachTarget, id: string): AttachOutcome {
    const loaded = this.load(id);
    if (!loaded.ok) return { attached: false, reason: loaded.reason, message: loaded.message };
    const { data } = loaded;
    if (!sameFolder(data.meta.cwd, session.cwd)) {
      return {
        attached: false,
        reason: 'other_workspace',
        message: `saved session "${id}" belongs to ${data.meta.cwd}, not ${session.cwd}: open that folder to continue it`,
      };
    }
    const lock = lockFile(this.dir, id);
    if (lockedByOther(lock)) return { attached: false, reason: 'busy', message: `saved session "${id}" is open in another runtime` };
    if (this.recorder) {
      const got = acquireLock(lock);
      if (!got.locked) return { attached: false, reason: 'busy', message: `saved session "${id}" is open in another runtime (process ${got.holderPid})` };
    }
    const batch = batchInWorkspace(data.batch, session.cwd);
    const history = completeToolResults(data.messages);
    // Results made up for unfinished tool calls come after the saved messages (a killed runtime's last call): saved then.
    const savedPrefix = data.messages.every((m, i) => history[i] === m) ? data.messages.length : history.length;
    session.restoreSaved(id, history, batch);
    if (this.recorder) {
      try {
        this.recorder.adopt(session, data.validBytes, { provider: data.provider, model: data.model }, savedPrefix);
      } catch (e) {
        this.opts.warn(`saved session "${id}" is attached but cannot be written to: ${(e as Error).message}`);
      }
    }
    const pending = session.store.pending();
    return {
      attached: true,
      sessionId: id,
      messageCount: session.history.length,
      pendingBatch: pending ? summarizeBatch(pending) : null,
      skippedLines: data.tornBytes ? 1 : 0,
      ...(data.unsavedChanges.length ? { unsavedChanges: data.unsavedChanges } : {}),
    };
  }

  /** Deletes saved session `id` (file and lock): never `current` (this runtime's session) nor one another runtime holds. */
  delete(id: string, current: string): { deleted: true; sessionId: string } | { deleted: false; reason: 'not_found' | 'busy' | 'current'; message: string } {
    const missing = { deleted: false as const, reason: 'not_found' as const, message: `no saved session "${id}" in ${this.dir}` };
    if (!isValidSessionId(id)) return missing;
    const file = sessionFile(this.dir, id);
    if (!fs.existsSync(file)) return missing;
    if (id === current) return { deleted: false, reason: 'current', message: `saved session "${id}" is the one this runtime is in: start a new one (reset) first` };
    if (lockedByOther(lockFile(this.dir, id))) return { deleted: false, reason: 'busy', message: `saved session "${id}" is open in another runtime` };
    fs.rmSync(file, { force: true });
    fs.rmSync(lockFile(this.dir, id), { force: true });
    removeApplied(this.dir, id);
    return { deleted: true, sessionId: id };
  }

  /** Keeps what session `id`'s applied batches can undo (only while sessions are saved). */
  async saveApplied(id: string, batches: AppliedBatchRecord[]): Promise<void> {
    if (this.recorder) await saveApplied(this.dir, id, batches);
  }

  /** What saved session `id`'s applied batches can undo (attach). */
  loadApplied(id: string): AppliedBatchRecord[] {
    return loadApplied(this.dir, id, this.cwd);
  }

  /**
   * Retention after a new session began, a moment later (or at close, whichever comes first): it stats every saved
   * session (up to `sessions.maxCount`, 500 by default), which would otherwise hold up the run's first model request.
   * (One turn of the event loop was not enough: the run's own first steps wait on I/O, so the pass still came first.)
   */
  private schedulePrune(current: string): void {
    this.flushPrune();
    const run = () => {
      this.pendingPrune = undefined;
      this.prune(current);
    };
    this.pendingPrune = { timer: setTimeout(run, PRUNE_DELAY_MS).unref(), run };
  }

  private flushPrune(): void {
    const pending = this.pendingPrune;
    if (!pending) return;
    clearTimeout(pending.timer);
    pending.run();
  }

  private prune(current: string): void {
    const { maxCount, maxAgeDays } = this.config.sessions;
    try {
      pruneSessions(this.dir, { maxCount, maxAgeDays }, new Set([current]));
    } catch (e) {
      this.opts.warn(`could not remove old saved sessions: ${(e as Error).message}`);
    }
  }
}
