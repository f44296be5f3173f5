import { comparePaths } from './file-listing';
import { looksBinary } from './read-file';
import { displayPath } from './tool-paths';
import { ToolInputError } from './types';

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

/** `relpath:line:text` lines, sorted by path then line, cut to `maxResults` with a note. */
export function formatMatches(cwd: string, matches: GrepMatch[], maxResults: number, incomplete: boolean): string {
  const rows = matches.map((m) => ({ shown: displayPath(cwd, m.absPath), line: m.line, text: m.text }));
  rows.sort((a, b) => comparePaths(a.shown, b.shown) || a.line - b.line);
  const out = rows.slice(0, maxResults).map((r) => {
    const text = r.text.length > MAX_MATCH_LINE_CHARS ? `${r.text.slice(0, MAX_MATCH_LINE_CHARS)}… [line cut]` : r.text;
    return `${r.shown}:${r.line}:${text}`;
  });
  if (rows.length > maxResults || incomplete) {
    const total = incomplete ? `more than ${rows.length}` : String(rows.length);
    out.push(`[showing ${Math.min(maxResults, rows.length)} of ${total} matches; narrow with path or glob, or raise max_results]`);
  }
  return out.join('\n');
}

