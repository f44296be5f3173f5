/**
 * A file path relative to a listed or searched folder as ripgrep printed it: UTF-8 bytes in its output buffer, decoded only when
 * asked. A listing of 100,000 files makes a string for the few hundred it keeps, not for every file.
 */
import path from 'node:path';
import { latin1Bytes } from './path-keys';

const POSIX = path.sep === '/';

export class RelativePath {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly end: number,
    /** The same bytes as latin1 text (indexes as in `bytes`), when the reader made it: key() is then a substring. */
    private readonly latin1?: string,
  ) {}

  /**
   * The path's UTF-8 bytes as latin1 text, one character per byte, in `/` form (see latin1Bytes): such keys compare as
   * plain strings in comparePaths' order, and an ASCII path is its own key.
   */
  key(): string {
    if (!POSIX) return latin1Bytes(this.text());
    return this.latin1 !== undefined ? this.latin1.substring(this.start, this.end) : this.bytes.toString('latin1', this.start, this.end);
  }

  /** The path in `/` form. */
  text(): string {
    const t = this.bytes.toString('utf8', this.start, this.end);
    return POSIX ? t : t.split(path.sep).join('/');
  }

  /**
   * This path against `other` (the UTF-8 bytes of a `/`-form path) in comparePaths' order (negative: sorts before,
   * 0: the same, positive: after), decided on the bytes; undefined where bytes cannot tell (`\` separators on Windows).
   */
  compare(other: Buffer): number | undefined {
    if (!POSIX) return undefined;
    return this.bytes.compare(other, 0, other.length, this.start, this.end);
  }
}
