import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { GrepMatch, GrepQuery } from './grep-matches';
import { ToolInputError } from './types';
import { RelativePath } from './relative-path';
/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a tool first runs, not at CLI start */
const childProcess = () => require('node:child_process') as typeof import('node:child_process');
/* eslint-enable @typescript-eslint/no-require-imports */

/** Env var naming the ripgrep binary to use (the extension points it at the editor's bundled one). */
export const RG_PATH_ENV = 'AGENTCLI_RG_PATH';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The ripgrep binary: `AGENTCLI_RG_PATH` when it is executable, else `rg` on PATH, else null. */
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  const configured = env[RG_PATH_ENV];
  if (configured && isExecutable(configured)) return configured;
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

/** Common flags: hidden files searched, .gitignore honoured without a git repo, `.git` skipped, no user config. */
function baseArgs(targetIsRulesRoot: boolean, nameGlob: string | undefined): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-global'];
  if (targetIsRulesRoot) args.push('--no-ignore-parent');
  args.push('--glob', '!.git');
  if (nameGlob) args.push('--glob', nameGlob);
  return args;
}

interface RipgrepScope {
  rgPath: string;
  /** File or folder to search (absolute). */
  target: string;
  /** Whether `target` is the root of the ignore rules (then parent folders' ignore files are not read). */
  targetIsRulesRoot: boolean;
  /** A glob on file names to pass through (the caller filters again with the exact same semantics). */
  nameGlob?: string;
  signal: AbortSignal;
}

export interface RipgrepSearch extends RipgrepScope {
  query: GrepQuery;
  /** `target` is a file (else a folder). */
  targetIsFile: boolean;
  /** Called per match as ripgrep finds it (in no particular order); return false to stop the search. */
  onMatch(hit: RipgrepHit): boolean;
}

const NUL = 0x00;
const NEWLINE = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const DOT = 0x2e;

/**
 * One matching line as ripgrep printed it, still bytes in its output: the file (relative to the searched folder, or
 * the file's own name when a file is searched) and the line number are read, the rest is decoded only when asked, so
 * a search that skips most of 100,000 matches makes no strings for them.
 */
export class RipgrepHit {
  constructor(
    /** The folder ripgrep ran in: `file` is relative to it. */
    private readonly dir: string,
    readonly file: RelativePath,
    readonly line: number,
    private readonly bytes: Buffer,
    private readonly textStart: number,
    private readonly textEnd: number,
  ) {}

  /** The match with its absolute path and its text (a trailing CR dropped). */
  toMatch(): GrepMatch {
    const end = this.textEnd > this.textStart && this.bytes[this.textEnd - 1] === CR ? this.textEnd - 1 : this.textEnd;
    return { absPath: path.join(this.dir, this.file.text()), line: this.line, text: this.bytes.toString('utf8', this.textStart, end) };
  }
}

export interface RipgrepListing extends RipgrepScope {
  /** Called per file as ripgrep finds it, with its path relative to `target`; return false to stop the listing. */
  onFile(file: RelativePath): boolean;
  /** Files to count without handing them over (see CountOnly). */
  countOnly?: CountOnly;
}

/**
 * A listing's files that are only counted: once the consumer keeps as many as it shows, a file sorting at or after
 * `from` (the largest kept `/`-form path; the consumer updates it) is counted here, in the read loop, with no object
 * made and no call: most of 100,000 files. The listing stops once `stopAt` files were read.
 */
export interface CountOnly {
  /** A path key (RelativePath.key): string order is then byte order, comparePaths' order. */
  from: string | undefined;
  counted: number;
  stopAt: number;
}

/** Where a path ripgrep printed starts once a leading `./` (or `.\\`) is skipped. */
function afterDotSlash(bytes: Buffer, start: number): number {
  return bytes[start] === DOT && (bytes[start + 1] === 0x2f || bytes[start + 1] === 0x5c) ? start + 2 : start;
}

/**
 * Reads `rg --null --with-filename --line-number` output (`path NUL line:text` per line) as hits. A file name holding a
 * newline arrives as pieces without a NUL: they are joined back onto the record they belong to.
 */
function hitParser(dir: string): (bytes: Buffer, start: number, end: number) => RipgrepHit | null {
  let carried: Buffer | undefined;
  return (chunk, from, to) => {
    let bytes = chunk;
    let start = from;
    let end = to;
    if (carried) {
      bytes = Buffer.concat([carried, chunk.subarray(from, to)]);
      start = 0;
      end = bytes.length;
    }
    const nul = bytes.indexOf(NUL, start);
    if (nul < 0 || nul >= end) {
      carried = Buffer.concat([bytes.subarray(start, end), Buffer.from([NEWLINE])]);
      return null;
    }
    carried = undefined;
    let line = 0;
    let at = nul + 1;
    for (; at < end && bytes[at]! >= 0x30 && bytes[at]! <= 0x39; at++) line = line * 10 + bytes[at]! - 0x30;
    if (at === nul + 1 || at >= end || bytes[at] !== COLON || line < 1) return null;
    return new RipgrepHit(dir, new RelativePath(bytes, afterDotSlash(bytes, start), nul), line, bytes, at + 1, end);
  };
}

interface RipgrepOutcome {
  /** The consumer stopped the run (ripgrep was killed), or the run was aborted. */
  stopped: boolean;
  code: number | null;
  stderr: string;
}

/** What reads ripgrep's output: each chunk as it arrives (false stops ripgrep), then the end of a finished run. */
interface OutputReader {
  chunk(bytes: Buffer): boolean;
  end(): void;
}

/** Runs ripgrep and hands its output to `reader` as it arrives; when the reader says stop, ripgrep is killed. */
function streamRipgrep(rgPath: string, args: string[], cwd: string, signal: AbortSignal, reader: OutputReader): Promise<RipgrepOutcome> {
  return new Promise((resolve, reject) => {
    const child = childProcess().spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    let stopped = false;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 8192) stderr += chunk;
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped || reader.chunk(chunk)) return;
      stopped = true;
      child.stdout.destroy();
      child.kill('SIGTERM');
    });
    child.on('error', (err) => {
      if (signal.aborted) resolve({ stopped: true, code: null, stderr });
      else reject(new Error(`could not run ripgrep (${rgPath}): ${err.message}`));
    });
    child.on('close', (code) => {
      if (!stopped && code !== null && code <= 1) reader.end();
      resolve({ stopped: stopped || signal.aborted, code, stderr: stderr.trim() });
    });
  });
}

/**
 * Output split at the byte `separator`, each record handed over as bytes (`bytes[start..end)`): no string is made for a
 * record the consumer skips (a listing of 100,000 files keeps a few hundred). Only the unfinished record is held
 * between chunks. Each chunk is also read as latin1 `text`, one character per byte (so its indexes and its order are
 * the bytes'): finding the separators there, and comparing there, are string operations the JIT inlines, where each
 * Buffer call would cross into C++ once per record.
 */
function byteRecords(separator: number, onRecord: (bytes: Buffer, start: number, end: number, text: string) => boolean): OutputReader {
  const separatorChar = String.fromCharCode(separator);
  let pending: Buffer | undefined;
  return {
    chunk(chunk) {
      let start = 0;
      if (pending) {
        // Only the record cut at the end of the last chunk is joined up: copying every chunk onto it touched as much
        // new memory as the output is long (megabytes for a big listing).
        const sep = chunk.indexOf(separator);
        if (sep < 0) {
          pending = Buffer.concat([pending, chunk]);
          return true;
        }
        const head = Buffer.concat([pending, chunk.subarray(0, sep)]);
        pending = undefined;
        if (head.length > 0 && !onRecord(head, 0, head.length, head.toString('latin1'))) return false;
        start = sep + 1;
      }
      const text = chunk.toString('latin1');
      let at: number;
      while ((at = text.indexOf(separatorChar, start)) >= 0) {
        if (at > start && !onRecord(chunk, start, at, text)) return false;
        start = at + 1;
      }
      pending = start < chunk.length ? Buffer.from(chunk.subarray(start)) : undefined;
      return true;
    },
    end() {
      if (pending) onRecord(pending, 0, pending.length, pending.toString('latin1'));
    },
  };
}

/** Exit 0 (found) and 1 (nothing found) are results; anything else is a failure with ripgrep's message. */
function failureOf(outcome: RipgrepOutcome, pattern: string | undefined): Error | null {
  if (outcome.stopped || outcome.code === 0 || outcome.code === 1) return null;
  const message = outcome.stderr || `ripgrep exited with code ${outcome.code}`;
  if (pattern !== undefined && /regex parse error|error parsing regex|unrecognized escape/i.test(message)) {
    return new ToolInputError(`invalid regex ${JSON.stringify(pattern)}: ${message}`);
  }
  return new Error(`ripgrep failed: ${message}`);
}

/**
 * Streams ripgrep's matches to `onMatch` (none are held here). Resolves with whether the search stopped early;
 * regex errors become a ToolInputError with ripgrep's message.
 */
export async function runRipgrep(search: RipgrepSearch): Promise<{ stopped: boolean }> {
  // Inside the folder on `.` (or beside the file on its name): short relative paths, as for the listing.
  const isFolder = !search.targetIsFile;
  const dir = isFolder ? search.target : path.dirname(search.target);
  const args = ['--no-heading', '--with-filename', '--line-number', '--null', '--color', 'never'];
  args.push(...baseArgs(search.targetIsRulesRoot, search.nameGlob));
  const where = isFolder ? '.' : `.${path.sep}${path.basename(search.target)}`;
  args.push(search.query.ignoreCase ? '--ignore-case' : '--case-sensitive', '--regexp', search.query.pattern, '--', where);
  let found = 0;
  const hitOf = hitParser(dir);
  const outcome = await streamRipgrep(search.rgPath, args, dir, search.signal, byteRecords(NEWLINE, (bytes, start, end) => {
    const hit = hitOf(bytes, start, end);
    if (!hit) return true;
    found++;
    return search.onMatch(hit);
  }));
  const failure = failureOf(outcome, search.query.pattern);
  // Unreadable files make ripgrep exit 2 after real results: those results stand.
  if (failure && (failure instanceof ToolInputError || found === 0)) throw failure;
  return { stopped: outcome.stopped };
}

/**
 * Streams `rg --files` (NUL-separated, so any file name is safe) to `onFile`; nothing is held here. Ripgrep runs inside
 * the folder on `.`: the paths come back short (`./a/b`), less to read and to compare than absolute ones.
 */
export async function listWithRipgrep(listing: RipgrepListing): Promise<{ stopped: boolean }> {
  const args = ['--files', '--null', ...baseArgs(listing.targetIsRulesRoot, listing.nameGlob), '--', '.'];
  let found = 0;
  // Byte order is comparePaths' order only for `/` separators.
  const countOnly = path.sep === '/' ? listing.countOnly : undefined;
  const outcome = await streamRipgrep(listing.rgPath, args, listing.target, listing.signal, byteRecords(NUL, (bytes, start, end, text) => {
    found++;
    const from = afterDotSlash(bytes, start);
    const cutoff = countOnly?.from;
    if (countOnly && cutoff !== undefined && text.substring(from, end) >= cutoff) {
      countOnly.counted++;
      return found < countOnly.stopAt;
    }
    return listing.onFile(new RelativePath(bytes, from, end, text));
  }));
  const failure = failureOf(outcome, undefined);
  if (failure && found === 0) throw failure;
  return { stopped: outcome.stopped };
}
