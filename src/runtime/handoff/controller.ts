/**
 * Browser handoff (spec 001 §4.3, §5.8) for one runtime's session: creating handoffs (token, record, page server) and
 * taking over a session another runtime of this user handed off.
 *
 * Takeover: the session's saved file is locked by the runtime that holds it. `attachBrowserHandoff` asks that runtime
 * (at the origin in the record) to release it; the holder refuses while a run is active (`busy`), else it marks the
 * token used, stops writing the session, frees its lock and starts a new session of its own. A holder that is gone
 * holds no lock: the token is claimed here and the session attached.
 */
import os from 'node:os';
import { DEFAULT_HANDOFF_TTL_SECONDS, type HandoffAttachResult, type HandoffFailureReason } from '../../protocol';
import type { Session } from '../agent/session';
import { HandoffPageServer } from './page-server';
import { hashToken, HandoffStore, newToken, sameHash, type HandoffRecord } from './store';

/** How long a takeover waits for the holding runtime to answer its release request. */
const RELEASE_TIMEOUT_MS = 5000;
/** How long a release waits for a run that is ending (its last event sent) to be over. */
const RUN_SETTLE_MS = 500;

const refuse = (reason: HandoffFailureReason, message: string): HandoffAttachResult => ({ attached: false, reason, message });

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class HandoffController {
  readonly store: HandoffStore;
  private server: HandoffPageServer | undefined;
  /** Hashes of the handoffs this runtime created. */
  private readonly created = new Set<string>();

  constructor(
    private readonly session: Session,
    private readonly opts: { home?: string; /** Told when another runtime took the session over. */ onReleased?: (sessionId: string) => void } = {},
  ) {
    this.store = new HandoffStore(opts.home ?? session.homeDir ?? os.homedir());
    session.listeners.add((e) => {
      if (e.type === 'session_end') this.close();
    });
  }

  async create(p: { ttlSeconds?: number }): Promise<{ token: string; url: string; expiresAt: string; sessionId: string }> {
    const server = (this.server ??= new HandoffPageServer({
      session: this.session,
      store: this.store,
      owns: (hash) => this.owned(hash),
      release: (record) => this.release(record),
    }));
    const origin = await server.start();
    const token = newToken();
    const now = Date.now();
    const expiresAt = new Date(now + (p.ttlSeconds ?? DEFAULT_HANDOFF_TTL_SECONDS) * 1000).toISOString();
    const record: HandoffRecord = {
      version: 1,
      tokenHash: hashToken(token),
      sessionId: this.session.id,
      cwd: this.session.cwd,
      createdAt: new Date(now).toISOString(),
      expiresAt,
      url: `${origin}/`,
      pid: process.pid,
    };
    this.store.save(record);
    this.created.add(record.tokenHash);
    return { token, url: `${origin}/#token=${token}`, expiresAt, sessionId: this.session.id };
  }

  async attach(token: string): Promise<HandoffAttachResult> {
    const record = this.store.findByToken(token);
    if (!record) return refuse('unknown', 'no handoff of this user has that token (mistyped, forged, or of another user): create a new one');
    return this.takeOver(record);
  }

  async attachLatest(p: { allWorkspaces?: boolean }): Promise<HandoffAttachResult> {
    const sameCwd = (r: HandoffRecord) => p.allWorkspaces === true || r.cwd === this.session.cwd;
    const latest = this.store.all().find((r) => r.pid !== process.pid && sameCwd(r) && this.store.state(r) === 'usable');
    if (!latest) {
      const where = p.allWorkspaces ? '' : ` for ${this.session.cwd} (pass allWorkspaces: true for any folder)`;
      return refuse('unknown', `no unexpired, unused handoff of another runtime${where}: create one with createBrowserHandoff in the other surface`);
    }
    return this.takeOver(latest);
  }

  /** Closes the page server (the runtime leaves). */
  close(): void {
    this.server?.close();
  }

  private owned(hash: string): HandoffRecord | undefined {
    if (![...this.created].some((h) => sameHash(h, hash))) return undefined;
    const record = this.store.findByHash(hash);
    return record?.pid === process.pid ? record : undefined;
  }

  /** The holder's side of a takeover: refused while a run is active or when the session moved on. */
  private async release(record: HandoffRecord): Promise<{ reason: string; message: string } | undefined> {
    // A run whose agent_end was just sent is still winding down: give it a moment before calling the session busy.
    const run = this.session.running;
    if (run) await Promise.race([run.done.catch(() => undefined), new Promise((r) => setTimeout(r, RUN_SETTLE_MS))]);
    if (this.session.running) return { reason: 'busy', message: `a run is active in the runtime holding session ${record.sessionId}: wait for it to end or abort it, then try again` };
    if (this.session.id !== record.sessionId) return { reason: 'not_found', message: `the runtime that created this handoff is no longer in session ${record.sessionId}` };
    if (!this.store.claim(record, `takeover from ${process.pid}`)) return { reason: 'used', message: 'the handoff was already used' };
    this.session.saved?.close(); // stops writing the session and frees its lock
    this.session.reset();
    this.server?.revoke(record.tokenHash, `session ${record.sessionId} was taken over by another runtime`);
    this.opts.onReleased?.(record.sessionId);
    return undefined;
  }

  private async takeOver(record: HandoffRecord): Promise<HandoffAttachResult> {
    const state = this.store.state(record);
    if (state === 'expired') return refuse('expired', `the handoff expired at ${record.expiresAt}: create a new one`);
    if (state === 'used') return refuse('used', 'the handoff was already used (tokens are single-use): create a new one');
    if (record.cwd !== this.session.cwd) {
      return refuse('other_workspace', `the handed-off session belongs to ${record.cwd}, not ${this.session.cwd}: open that folder to continue it`);
    }
    if (record.pid === process.pid) return refuse('busy', `session ${record.sessionId} is this runtime's own: it needs no handoff here`);
    if (!this.session.saved) return refuse('not_found', 'this runtime reads no saved sessions, so it cannot continue another one');
    if (this.session.running) return refuse('busy', 'a run is active in this runtime: abort it before taking over another session');
    const batch = this.session.store.pending() ?? this.session.store.open();
    if (batch && batch.changes.length > 0) {
      return refuse('busy', `change batch ${batch.id} of this runtime is waiting for a decision: decide it before taking over another session`);
    }
    const saved = this.session.saved.load(record.sessionId);
    if (!saved.ok) {
      const detail = saved.reason === 'not_found' ? ' (nothing was said in it yet, or saving is off in the other runtime)' : '';
      return refuse(saved.reason, `${saved.message}${detail}`);
    }
    const asked = processAlive(record.pid) ? await this.askRelease(record) : 'gone';
    if (asked !== 'gone' && asked !== 'released') return asked;
    // A holder that is gone (its page no longer answers) holds no lock; a live one still holding it makes attach busy.
    if (asked === 'gone' && !this.store.claim(record, `takeover from ${process.pid}`)) {
      return refuse('used', 'the handoff was already used (tokens are single-use): create a new one');
    }
    const outcome = this.session.attachSaved(record.sessionId);
    if (!outcome.attached) return refuse(outcome.reason, outcome.message);
    return { attached: true, sessionId: outcome.sessionId, messageCount: outcome.messageCount };
  }

  private async askRelease(record: HandoffRecord): Promise<HandoffAttachResult | 'released' | 'gone'> {
    const origin = new URL(record.url).origin;
    if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) return refuse('unknown', `the handoff record names an address that is not this machine's (${origin})`);
    let status: number;
    let body: { reason?: string; message?: string };
    try {
      const res = await fetch(`${origin}/api/release`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokenHash: record.tokenHash }),
        signal: AbortSignal.timeout(RELEASE_TIMEOUT_MS),
      });
      status = res.status;
      body = (await res.json().catch(() => ({}))) as typeof body;
    } catch (e) {
      if ((e as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return 'gone';
      return refuse('busy', `the runtime holding session ${record.sessionId} (process ${record.pid}) did not answer the release request: ${(e as Error).message}`);
    }
    if (status === 200) return 'released';
    const reason = (['busy', 'used', 'expired', 'not_found', 'unknown'] as const).find((r) => r === body.reason) ?? 'busy';
    return refuse(reason, body.message ?? `the runtime holding session ${record.sessionId} refused to release it (HTTP ${status})`);
  }
}
