import { comparePaths } from './file-listing';
import { looksBinary } from './read-file';
import { SmallestKept } from './smallest-kept';
import { ShownBelow } from './tool-paths';
import { ToolInputError } from './types';
import type { RelativePath } from './relative-path';

/** Long matching lines are cut so one minified file cannot flood the model. */
export const MAX_MATCH_LINE_CHARS = 500;

export interface GrepMatch {
  absPath: string;
  line: number;
  text: string;
}

export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
}

export function compileRegex(query: GrepQuery): RegExp {
  try {
    return new RegExp(query.pattern, query.ignoreCase ? 'i' : '');
  } catch (err) {
    throw new ToolInputError(`invalid regex ${JSON.stringify(query.pattern)}: ${(err as Error).message}`);
  }
}

/** Matching lines of one file's content; binary content (a NUL in the first 8 KB) is skipped like ripgrep does. */
export function searchContent(absPath: string, bytes: Buffer, regex: RegExp): GrepMatch[] {
  if (looksBinary(bytes)) return [];
  const matches: GrepMatch[] = [];
  const content = bytes.toString('utf8');
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  lines.forEach((raw, index) => {
    const text = raw.replace(/\r$/, '');
    if (regex.test(text)) matches.push({ absPath, line: index + 1, text });
  });
  return matches;
}

interface ShownMatch extends GrepMatch {
  shown: string;
}

const byPathThenLine = (a: ShownMatch, b: ShownMatch) => comparePaths(a.shown, b.shown) || a.line - b.line;

/**
 * Collects a search's matches as they stream in, in any order: counts them and keeps only the `maxResults` first by
 * path then line, so memory does not grow with the number of matches. Past `examineCap` matches it says stop.
 */
export class MatchCollector {
  private readonly kept: SmallestKept<ShownMatch>;
  /** Matches seen so far (kept or not). */
  total = 0;
  /** The search stopped before seeing every match (cap reached or aborted). */
  incomplete = false;

  /** `base`: the searched file or (real) folder; matches below it are shown relative to how it is shown. */
  constructor(cwd: string, base: string, maxResults: number, private readonly examineCap: number) {
    this.kept = new SmallestKept(maxResults, byPathThenLine);
    this.paths = new ShownBelow(cwd, base);
  }

  private readonly paths: ShownBelow;
  /** The display path of the last file seen: matches arrive grouped by file. */
  private last = { absPath: '', shown: '' };

  /** Adds one match; returns false once the cap is reached (the search should stop). */
  add(match: GrepMatch): boolean {
    this.count();
    if (match.absPath !== this.last.absPath) this.last = { absPath: match.absPath, shown: this.paths.absolute(match.absPath) };
    this.kept.offer({ ...match, shown: this.last.shown });
    return !this.incomplete;
  }

  /** One more match seen; past the examine cap the search is incomplete. */
  private count(): void {
    this.total++;
    if (this.total >= this.examineCap) this.incomplete = true;
  }

  /** The UTF-8 bytes of the largest kept match's path below the base, kept while it stays the largest. */
  private largestBelowBase: { match: ShownMatch; bytes: Buffer } | undefined;

  /**
   * Counts a match in a file below the base (`file` relative to it) when it would not be kept: it sorts at or after
   * the collector's cutoff. Decided on the path's bytes, so a search that passes over most of
   * 100,000 matches makes no strings for them. False when it may be kept: then add() it.
   */
  countIfNotKept(file: RelativePath, line: number): boolean {
    const largest = this.kept.largest();
    if (!largest) return false;
    if (this.largestBelowBase?.match !== largest) {
      const prefix = this.paths.relative('');
      if (!largest.shown.startsWith(prefix)) return false;
      this.largestBelowBase = { match: largest, bytes: Buffer.from(largest.shown.slice(prefix.length)) };
    }
    const order = file.compare(this.largestBelowBase.bytes);
    if (order === undefined || order < 0 || (order === 0 && line < largest.line)) return false;
    this.count();
    return true;
  }

  /** The kept matches in output order. */
  shown(): ShownMatch[] {
    return this.kept.sorted();
  }
}

/** `relpath:line:text` lines, sorted by path then line, with a note when more matched than are shown. */
export function formatMatches(matches: MatchCollector, shown: ShownMatch[] = matches.shown()): string {
  const out = shown.map((r) => {
    const text = r.text.length > MAX_MATCH_LINE_CHARS ? `${r.text.slice(0, MAX_MATCH_LINE_CHARS)}… [line cut]` : r.text;
    return `${r.shown}:${r.line}:${text}`;
  });
  if (matches.total > shown.length || matches.incomplete) {
    const total = matches.incomplete ? `more than ${matches.total}` : String(matches.total);
    out.push(`[showing ${shown.length} of ${total} matches; narrow with path or glob, or raise max_results]`);
  }
  return out.join('\n');
}
