/**
 * Saves a session as it happens: watches the session's events and, at each boundary (every event but the streaming
 * deltas), appends the history messages not saved yet, errors, provider/model changes and the undecided change batch
 * in one write. The file is created at the session's first prompt, so sessions without one leave nothing behind.
 */
import fs from 'node:fs';
import type { HistoryMessage } from '../../protocol/records';
import type { DecidedBatch } from '../../protocol/undo';
import type { EventDraft } from '../agent/host';
import type { StoredBatch } from '../changes';
import { acquireLock, releaseLock } from './lock';
import { lockFile, sessionFile } from './paths';
import { readSessionFile } from './reader';
import { appendToIndex } from './index-file';
import { SESSION_FILE_VERSION, type LineDraft, type MetaRecord, type SavedBatch, type SessionLine } from './records';
import type { SessionRedactor } from './redaction';
import { ensureSessionsDir, SessionFileWriter } from './writer';

/** What the recorder reads of a session. */
export interface RecordedSession {
  readonly id: string;
  readonly cwd: string;
  readonly history: HistoryMessage[];
  selected(): { provider: string; model: string };
  readonly store: { pending(): StoredBatch | null };
}

export const TITLE_MAX_CHARS = 80;

export function titleOf(prompt: string): string {
  const oneLine = prompt.replace(/\s+/g, ' ').trim();
  return oneLine.length > TITLE_MAX_CHARS ? `${oneLine.slice(0, TITLE_MAX_CHARS - 1)}…` : oneLine;
}

export interface RecorderOptions {
  dir: string;
  redactor: SessionRedactor;
  /** Called after a new session file is made (retention runs then). */
  onCreated?(id: string): void;
  warn(line: string): void;
}

export class SessionRecorder {
  private id: string | undefined;
  private writer: SessionFileWriter | undefined;
  private history: HistoryMessage[] | undefined;
  private written = 0;
  private model: { provider: string; model: string } | undefined;
  private failed = false;
  /** The batch waiting for a decision, without contents: its decided line names its files (the store has let it go then). */
  private pendingFiles: Omit<DecidedBatch, 'results' | 'undoResults'> | undefined;
  /**
   * A new session's file, waiting for the end of the current task: what to make it with, and the lines of its events
   * so far (computed as they came, so they are exactly what was written before). Made sooner when the recorder
   * switches sessions or closes, and at exit.
   */
  private unmade: { id: string; file: string; meta: MetaRecord; lines: SessionLine[] } | undefined;
  /** At exit the file is made and closed at once: the lock's own exit hook may already have run. */
  private readonly makeAtExit = () => {
    this.makeUnmade();
    this.switchTo(undefined);
  };

  constructor(private readonly opts: RecorderOptions) {}

  observe(session: RecordedSession, draft: EventDraft): void {
    if (draft.type === 'message_update' || draft.type === 'tool_update') return;
    if (session.id !== this.id) this.switchTo(session.id);
    if (this.failed) return;
    if (!this.writer && !this.unmade) {
      if (draft.type !== 'agent_start') return;
      this.create(session, draft.prompt);
      if (!this.writer && !this.unmade) return;
    }
    try {
      const lines = this.linesFor(session, draft);
      if (this.unmade) this.unmade.lines.push(...lines);
      else this.writer?.appendAll(lines);
    } catch (e) {
      this.fail(`could not save session ${session.id}: ${(e as Error).message}`);
    }
  }

  /**
   * Continues an existing file (attach): its first `saved` messages are the session's history so far; any after them
   * (results attach made up for tool calls a killed runtime never finished) are written at the next boundary.
   */
  adopt(session: RecordedSession, validBytes: number, model: { provider: string; model: string }, saved = session.history.length): void {
    this.switchTo(session.id);
    const file = sessionFile(this.opts.dir, session.id);
    this.writer = SessionFileWriter.reopen(file, validBytes);
    this.history = session.history;
    this.written = Math.min(saved, session.history.length);
    this.model = model;
    this.notePending(session);
  }

  private notePending(session: RecordedSession): void {
    const batch = session.store.pending();
    if (!batch) return;
    const files = batch.changes.map((c) => ({ changeId: c.id, path: c.path, kind: c.kind, additions: c.additions, deletions: c.deletions }));
    this.pendingFiles = { batchId: batch.id, runId: batch.runId, files };
  }

  /** The line ending batch `batchId`: with its files and results when its files are known. */
  private decidedLine(draft: Extract<EventDraft, { type: 'change_batch_decided' }>): LineDraft {
    const known = this.pendingFiles?.batchId === draft.batchId ? this.pendingFiles : undefined;
    this.pendingFiles = undefined;
    if (!known) return { type: 'batch', batch: null };
    return { type: 'batch', batch: null, decided: this.opts.redactor.value({ ...known, results: draft.results }) };
  }

  /** Closes the file and releases the lock (the runtime leaves, or the conversation is reset). */
  close(): void {
    this.switchTo(undefined);
  }

  private switchTo(id: string | undefined): void {
    this.makeUnmade();
    if (this.writer && this.id) releaseLock(lockFile(this.opts.dir, this.id));
    this.writer?.close();
    this.writer = undefined;
    this.id = id;
    this.history = undefined;
    this.written = 0;
    this.model = undefined;
    this.failed = false;
    this.pendingFiles = undefined;
  }

  private create(session: RecordedSession, prompt: string): void {
    const sel = session.selected();
    const file = sessionFile(this.opts.dir, session.id);
    try {
      if (fs.existsSync(file)) {
        // Saving was turned off and on again (configure): go on in the same file after the messages it holds.
        acquireLock(lockFile(this.opts.dir, session.id));
        const saved = readSessionFile(file);
        this.writer = SessionFileWriter.reopen(file, saved.validBytes);
        this.history = session.history;
        this.written = Math.min(saved.messages.length, session.history.length);
        this.model = { provider: saved.provider, model: saved.model };
        return;
      }
    } catch (e) {
      this.fail(`could not create the session file for ${session.id}: ${(e as Error).message}`);
      return;
    }
    const meta: MetaRecord = {
      type: 'meta',
      version: SESSION_FILE_VERSION,
      sessionId: session.id,
      cwd: session.cwd,
      createdAt: new Date().toISOString(),
      title: titleOf(this.opts.redactor.text(prompt)),
      provider: sel.provider,
      model: sel.model,
    };
    this.model = sel;
    this.written = 0;
    // The folder, the lock, the file and its index line are made once this task ends: a run's first model request
    // goes out in this one and does not wait for them (1-2 ms of every start on the bench machine).
    this.unmade = { id: session.id, file, meta, lines: [] };
    setImmediate(() => this.makeUnmade());
    process.once('exit', this.makeAtExit);
  }

  /** Makes a new session's file now if it is still waiting (before the saved sessions are listed or read). */
  makeUnmade(): void {
    const unmade = this.unmade;
    if (!unmade) return;
    this.unmade = undefined;
    process.removeListener('exit', this.makeAtExit);
    try {
      ensureSessionsDir(this.opts.dir);
      acquireLock(lockFile(this.opts.dir, unmade.id));
      this.writer = SessionFileWriter.create(unmade.file, unmade.meta);
      appendToIndex(this.opts.dir, [unmade.meta]);
    } catch (e) {
      this.fail(`could not create the session file for ${unmade.id}: ${(e as Error).message}`);
      return;
    }
    this.opts.onCreated?.(unmade.id);
    try {
      this.writer.appendAll(unmade.lines);
    } catch (e) {
      this.fail(`could not save session ${unmade.id}: ${(e as Error).message}`);
    }
  }

  private fail(message: string): void {
    this.failed = true;
    this.opts.warn(`${message}; this session is no longer saved`);
  }

  private linesFor(session: RecordedSession, draft: EventDraft): SessionLine[] {
    const drafts: LineDraft[] = [];
    const sel = session.selected();
    if (!this.model || this.model.provider !== sel.provider || this.model.model !== sel.model) {
      this.model = sel;
      drafts.push({ type: 'model' });
    }
    if (session.history !== this.history) {
      // A new history array (reset or attach) for the same id: save from its start.
      this.history = session.history;
      this.written = Math.min(this.written, session.history.length);
    }
    if (draft.type === 'context_compacted') {
      // Everything before was saved: the summary pair replaces the messages it summarised.
      const removed = draft.messagesBefore - draft.messagesAfter + 2;
      drafts.push({ type: 'compacted', removed, messages: this.opts.redactor.value(session.history.slice(0, 2)) });
      this.written = session.history.length;
    }
    for (; this.written < session.history.length; this.written++) {
      drafts.push({ type: 'message', message: this.opts.redactor.value(session.history[this.written]!) });
    }
    if (draft.type === 'error') {
      drafts.push({
        type: 'error',
        ...(draft.runId ? { runId: draft.runId } : {}),
        ...(draft.toolCallId ? { toolCallId: draft.toolCallId } : {}),
        code: draft.code,
        error: this.opts.redactor.text(draft.error),
        ...(draft.remedy !== undefined ? { remedy: this.opts.redactor.text(draft.remedy) } : {}),
        ...(draft.fix ? { fix: draft.fix } : {}),
      });
    } else if (draft.type === 'change_batch_ready') {
      this.notePending(session);
      drafts.push(this.batchLine(session.store.pending()));
    } else if (draft.type === 'change_batch_decided') {
      drafts.push(this.decidedLine(draft));
    } else if (draft.type === 'changes_reverted') {
      // undo is refused while a batch waits for a decision: none is pending
      drafts.push({ type: 'batch', batch: null, reverted: this.opts.redactor.value({ batchId: draft.batchId, results: draft.results }) });
    }
    const base = { at: new Date().toISOString(), count: this.written, provider: sel.provider, model: sel.model };
    return drafts.map((d) => ({ ...d, ...base }) as SessionLine);
  }

  /** The pending batch with both sides of each change; a change whose contents hold a secret is left out. */
  private batchLine(batch: StoredBatch | null): LineDraft {
    if (!batch) return { type: 'batch', batch: null };
    const r = this.opts.redactor;
    const unsaved: string[] = [];
    const changes = batch.changes.filter((c) => {
      const secret = r.holdsSecret(c.originalContent) || r.holdsSecret(c.proposedContent);
      if (secret) unsaved.push(c.path);
      return !secret;
    });
    // Contents with a secret were left out above; masking the rest catches one in a path (that change then no longer
    // matches its path on attach and is dropped there).
    const saved: SavedBatch = r.value({ id: batch.id, runId: batch.runId, status: batch.status, changes: changes.map((c) => ({ ...c })) });
    return { type: 'batch', batch: saved, ...(unsaved.length ? { unsaved } : {}) };
  }
}
