/**
 * Browser handoff records: `~/.agentcli/state/handoff/<sha256 of the token>.json` (folder 0700, files 0600). The token
 * itself is never written anywhere: a record holds its hash. A token is single-use: whoever creates
 * `<hash>.used` first (an exclusive create, so two runtimes cannot both win) has used it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { uniqueSuffix } from '../unique-id';

export interface HandoffRecord {
  version: 1;
  tokenHash: string;
  /** The session handed off (its saved-session id). */
  sessionId: string;
  cwd: string;
  createdAt: string;
  expiresAt: string;
  /** The page of the runtime that created it (its origin also answers the takeover's release request). */
  url: string;
  /** The process id of that runtime. */
  pid: number;
}

export type HandoffState = 'usable' | 'expired' | 'used';

const HASH = /^[0-9a-f]{64}$/;
/** Records expired this long ago are removed when the next handoff is created. */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

export function handoffDir(home: string): string {
  return path.join(home, '.agentcli', 'state', 'handoff');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  if (!HASH.test(a) || !HASH.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

function parseRecord(text: string): HandoffRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<HandoffRecord>;
    if (r.version !== 1 || typeof r.tokenHash !== 'string' || !HASH.test(r.tokenHash)) return undefined;
    if (typeof r.sessionId !== 'string' || typeof r.cwd !== 'string' || typeof r.url !== 'string' || typeof r.pid !== 'number') return undefined;
    if (typeof r.createdAt !== 'string' || typeof r.expiresAt !== 'string' || Number.isNaN(Date.parse(r.expiresAt))) return undefined;
    return r as HandoffRecord;
  } catch {
    return undefined;
  }
}

export class HandoffStore {
  readonly dir: string;

  constructor(home: string, private readonly now: () => number = Date.now) {
    this.dir = handoffDir(home);
  }

  /** Writes a new record (0600, atomically through a temp file) and removes long-expired ones. */
  save(record: HandoffRecord): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.dir, 0o700);
    this.prune();
    const file = this.fileOf(record.tokenHash);
    const tmp = `${file}.${uniqueSuffix()}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  }

  /** The record whose hash matches the token's (compared in constant time), if any. */
  findByToken(token: string): HandoffRecord | undefined {
    return this.findByHash(hashToken(token));
  }

  findByHash(hash: string): HandoffRecord | undefined {
    let found: HandoffRecord | undefined;
    for (const r of this.all()) if (sameHash(r.tokenHash, hash)) found = r;
    return found;
  }

  state(r: HandoffRecord): HandoffState {
    if (fs.existsSync(this.usedFile(r.tokenHash))) return 'used';
    return Date.parse(r.expiresAt) <= this.now() ? 'expired' : 'usable';
  }

  /** Marks the token used; false when it already was (another page or runtime won). */
  claim(r: HandoffRecord, by: string): boolean {
    try {
      fs.writeFileSync(this.usedFile(r.tokenHash), `${by} ${new Date(this.now()).toISOString()}\n`, { mode: 0o600, flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
  }

  /** Every readable record, newest first. */
  all(): HandoffRecord[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: HandoffRecord[] = [];
    for (const name of names) {
      if (!name.endsWith('.json') || !HASH.test(name.slice(0, -5))) continue;
      try {
        const r = parseRecord(fs.readFileSync(path.join(this.dir, name), 'utf8'));
        if (r && r.tokenHash === name.slice(0, -5)) out.push(r);
      } catch {
        // removed meanwhile
      }
    }
    return out.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  }

  private prune(): void {
    for (const r of this.all()) {
      if (Date.parse(r.expiresAt) + KEEP_EXPIRED_MS > this.now()) continue;
      fs.rmSync(this.fileOf(r.tokenHash), { force: true });
      fs.rmSync(this.usedFile(r.tokenHash), { force: true });
    }
  }

  private fileOf(hash: string): string {
    return path.join(this.dir, `${hash}.json`);
  }

  private usedFile(hash: string): string {
    return path.join(this.dir, `${hash}.used`);
  }
}
