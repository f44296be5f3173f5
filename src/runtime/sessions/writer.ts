/**
 * Appends the lines of one saved session through an open file handle: one synchronous write per message boundary
 * (no fsync: a killed process loses nothing the kernel already has, so at most the message in flight is lost).
 * Files are 0600 in a 0700 folder.
 */
import fs from 'node:fs';
import type { MetaRecord, SessionLine } from './records';

/** Makes the sessions folder (0700); an existing one is narrowed to 0700 too. */
export function ensureSessionsDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = fs.statSync(dir).mode & 0o777;
  if (mode !== 0o700) fs.chmodSync(dir, 0o700);
}

export class SessionFileWriter {
  private fd: number | undefined;

  private constructor(
    readonly file: string,
    fd: number,
  ) {
    this.fd = fd;
  }

  /** A new session file starting with its meta line; fails if the file exists. */
  static create(file: string, meta: MetaRecord): SessionFileWriter {
    const fd = fs.openSync(file, 'wx', 0o600);
    const writer = new SessionFileWriter(file, fd);
    writer.writeRaw(JSON.stringify(meta) + '\n');
    return writer;
  }

  /**
   * An existing session file, opened to append. `validBytes` (from the reader) cuts a torn last line off first, so
   * the next line does not end up glued to it.
   */
  static reopen(file: string, validBytes: number): SessionFileWriter {
    const fd = fs.openSync(file, 'r+');
    try {
      if (fs.fstatSync(fd).size > validBytes) fs.ftruncateSync(fd, validBytes);
      fs.fchmodSync(fd, 0o600);
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
    fs.closeSync(fd);
    return new SessionFileWriter(file, fs.openSync(file, 'a', 0o600));
  }

  append(line: SessionLine): void {
    this.writeRaw(JSON.stringify(line) + '\n');
  }

  /** Several lines in one write. */
  appendAll(lines: SessionLine[]): void {
    if (lines.length > 0) this.writeRaw(lines.map((l) => JSON.stringify(l) + '\n').join(''));
  }

  private writeRaw(text: string): void {
    if (this.fd === undefined) return;
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}
