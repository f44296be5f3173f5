/**
 * The handoff page's server: node:http on 127.0.0.1, a random port, started on the first handoff. Every request must
 * name this exact host (no DNS rebinding) and, when it comes from a page, this exact origin (no cross-site request).
 * The page trades its token once for a random session cookie (HttpOnly, SameSite=Strict) bound to that handoff;
 * everything else needs the cookie, except the release that another runtime of this user asks for at takeover.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChangeDecision, type AgentEvent } from '../../protocol';
import { summarizeBatch } from '../changes';
import type { Session } from '../agent/session';
import { contentSecurityPolicy, handoffPage } from './page';
import type { HandoffRecord, HandoffStore } from './store';
import { hashToken } from './store';

const COOKIE = 'agentcli_handoff';
const MAX_BODY_BYTES = 256 * 1024;

class HttpRefusal extends Error {
  constructor(readonly status: number, readonly reason: string, message: string) {
    super(message);
  }
}

/** What the server asks of its owner: which records it may honour, and how to release a session at takeover. */
export interface PageServerOwner {
  session: Session;
  store: HandoffStore;
  /** Records this runtime created (by hash): a token of another runtime is not honoured here. */
  owns(hash: string): HandoffRecord | undefined;
  /** Lets another runtime take the session over: `undefined` when released, else why not. */
  release(record: HandoffRecord): Promise<{ reason: string; message: string } | undefined>;
}

export class HandoffPageServer {
  private server: http.Server | undefined;
  private port = 0;
  /** Cookie value → the hash of the handoff it was given for. */
  private readonly cookies = new Map<string, string>();
  private readonly streams = new Set<http.ServerResponse>();

  constructor(private readonly owner: PageServerOwner) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<string> {
    if (this.server) return this.origin;
    const server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref(); // the page never keeps a runtime alive on its own
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this.origin;
  }

  /** Ends the page's connections (the runtime leaves, or the session was taken over). */
  close(note?: string): void {
    for (const res of this.streams) {
      if (note) res.write(`data: ${JSON.stringify({ type: 'handoff_released', message: note })}\n\n`);
      res.end();
    }
    this.streams.clear();
    this.cookies.clear();
    if (!note) this.server?.close();
  }

  /** Forgets the cookies of one handoff (its session moved on). */
  revoke(hash: string, note: string): void {
    for (const [cookie, h] of this.cookies) if (h === hash) this.cookies.delete(cookie);
    this.close(note);
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      this.checkOrigin(req);
      const url = new URL(req.url ?? '/', this.origin);
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /') return this.page(res);
      if (route === 'POST /api/attach') return this.json(res, 200, this.attach(await this.body(req), res));
      if (route === 'POST /api/release') return this.json(res, 200, await this.release(req, await this.body(req)));
      this.requireCookie(req);
      const session = this.owner.session;
      switch (route) {
        case 'GET /api/transcript': {
          const batch = session.store.pending() ?? session.store.open();
          return this.json(res, 200, { sessionId: session.id, messages: session.history, state: session.state(), pendingBatch: batch ? summarizeBatch(batch) : null });
        }
        case 'GET /api/events':
          return this.events(req, res);
        case 'POST /api/prompt': {
          const { message } = await this.body(req);
          if (typeof message !== 'string' || message.trim() === '') throw new HttpRefusal(400, 'invalid', '"message" must be a non-empty string');
          return this.json(res, 200, { runId: this.guard(() => session.startRun({ message })).runId });
        }
        case 'POST /api/abort':
          return this.json(res, 200, session.abort());
        case 'POST /api/permission': {
          const { requestId, allowed } = await this.body(req);
          if (typeof requestId !== 'string' || typeof allowed !== 'boolean') throw new HttpRefusal(400, 'invalid', '"requestId" (string) and "allowed" (boolean) are required');
          if (!session.pending.answer(requestId, 'permission', { allowed, scope: 'once' })) {
            throw new HttpRefusal(404, 'unknown', `no pending permission request "${requestId}" (already answered or cancelled)`);
          }
          return this.json(res, 200, { ok: true });
        }
        case 'POST /api/decide': {
          const { batchId, decision, changeIds } = await this.body(req);
          const parsed = ChangeDecision.safeParse(decision);
          if (typeof batchId !== 'string' || !parsed.success) throw new HttpRefusal(400, 'invalid', '"batchId" and "decision" (accept_all, reject_all, accept_selected) are required');
          const ids = Array.isArray(changeIds) ? changeIds.filter((c): c is string => typeof c === 'string') : undefined;
          return this.json(res, 200, await this.guardAsync(() => session.decideChanges(batchId, parsed.data, ids)));
        }
        default:
          throw new HttpRefusal(404, 'not_found', `no such page: ${route}`);
      }
    } catch (e) {
      if (e instanceof HttpRefusal) return this.json(res, e.status, { reason: e.reason, message: e.message });
      return this.json(res, 500, { reason: 'internal', message: (e as Error).message });
    }
  }

  private checkOrigin(req: http.IncomingMessage): void {
    const host = `127.0.0.1:${this.port}`;
    if (req.headers.host !== host) throw new HttpRefusal(403, 'host', `refused: the Host header must be ${host}`);
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== this.origin) throw new HttpRefusal(403, 'origin', `refused: requests from ${origin} are not allowed (only ${this.origin})`);
    if (req.method === 'POST' && req.headers['content-type']?.split(';')[0]?.trim() !== 'application/json') {
      throw new HttpRefusal(415, 'content_type', 'refused: send JSON (content-type: application/json)');
    }
  }

  private page(res: http.ServerResponse): void {
    const nonce = randomBytes(16).toString('base64');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(nonce),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    });
    res.end(handoffPage(nonce));
  }

  /** The token, once: a usable token of this runtime becomes a cookie, and is used. */
  private attach(body: Record<string, unknown>, res: http.ServerResponse): { sessionId: string } {
    const record = this.usable(body.token);
    if (!this.owner.store.claim(record, `page ${process.pid}`)) throw new HttpRefusal(410, 'used', 'this handoff link was already used: create a new one');
    const cookie = randomBytes(32).toString('base64url');
    this.cookies.set(cookie, record.tokenHash);
    res.setHeader('set-cookie', `${COOKIE}=${cookie}; HttpOnly; SameSite=Strict; Path=/`);
    return { sessionId: this.owner.session.id };
  }

  /** Another runtime of this user takes the session over: proven by the token's hash from the user's own record. */
  private async release(req: http.IncomingMessage, body: Record<string, unknown>): Promise<{ released: true }> {
    if (req.headers.origin !== undefined) throw new HttpRefusal(403, 'origin', 'refused: a page cannot release the session');
    const hash = typeof body.tokenHash === 'string' ? body.tokenHash : '';
    const record = this.owner.owns(hash);
    if (!record) throw new HttpRefusal(404, 'unknown', 'no handoff of this runtime has that token');
    const state = this.owner.store.state(record);
    if (state !== 'usable') throw new HttpRefusal(410, state, state === 'used' ? 'the handoff was already used' : 'the handoff has expired');
    const refused = await this.owner.release(record);
    if (refused) throw new HttpRefusal(409, refused.reason, refused.message);
    return { released: true };
  }

  private usable(token: unknown): HandoffRecord {
    if (typeof token !== 'string' || token === '') throw new HttpRefusal(400, 'invalid', '"token" is required');
    const record = this.owner.owns(hashToken(token));
    if (!record) throw new HttpRefusal(401, 'unknown', 'this handoff link is not valid (unknown token): create a new one from the terminal or editor');
    const state = this.owner.store.state(record);
    if (state === 'expired') throw new HttpRefusal(410, 'expired', `this handoff link expired at ${record.expiresAt}: create a new one`);
    if (state === 'used') throw new HttpRefusal(410, 'used', 'this handoff link was already used: create a new one');
    return record;
  }

  private requireCookie(req: http.IncomingMessage): void {
    const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim());
    const value = cookies.find((c) => c.startsWith(`${COOKIE}=`))?.slice(COOKIE.length + 1);
    if (!value || !this.cookies.has(value)) throw new HttpRefusal(401, 'no_session', 'not attached: open the handoff link again (a new one if it was used)');
  }

  private events(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': attached\n\n');
    const listener = (e: AgentEvent) => res.write(`data: ${JSON.stringify(e)}\n\n`);
    this.owner.session.listeners.add(listener);
    this.streams.add(res);
    req.on('close', () => {
      this.owner.session.listeners.delete(listener);
      this.streams.delete(res);
    });
  }

  private guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw new HttpRefusal(409, 'refused', (e as Error).message);
    }
  }

  private async guardAsync<T>(f: () => Promise<T>): Promise<T> {
    try {
      return await f();
    } catch (e) {
      throw new HttpRefusal(409, 'refused', (e as Error).message);
    }
  }

  private body(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      let size = 0;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) {
          reject(new HttpRefusal(413, 'too_large', `the request body is over ${MAX_BODY_BYTES} bytes`));
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => {
        try {
          const v = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as unknown;
          resolve(v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
        } catch {
          reject(new HttpRefusal(400, 'invalid', 'the request body is not JSON'));
        }
      });
      req.on('error', reject);
    });
  }

  private json(res: http.ServerResponse, status: number, value: unknown): void {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify(value));
  }
}
