/**
 * Ranks workspace files for the prompt box's `@` suggestions: file-name prefix first, then path prefix, name and path
 * substrings, then the path's letters in order (fuzzy), the tightest first. Pure: no `vscode` import.
 */

import { MAX_FILE_SUGGESTIONS } from '../../shared/chat/limits';

function fuzzyScore(path: string, query: string): number | undefined {
  // The letters of the query in order; the fewer letters skipped between them, the better.
  let at = -1;
  let gaps = 0;
  for (const ch of query) {
    const next = path.indexOf(ch, at + 1);
    if (next < 0) return undefined;
    if (at >= 0) gaps += next - at - 1;
    at = next;
  }
  return gaps;
}

/** A lower rank is better; undefined: no match. */
function rank(path: string, query: string): number | undefined {
  const p = path.toLowerCase();
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (query === '') return p.split('/').length * 1000; // nothing typed yet: shallow files first
  if (name.startsWith(query)) return 0;
  if (p.startsWith(query)) return 1_000;
  if (name.includes(query)) return 2_000;
  if (p.includes(query)) return 3_000;
  const fuzzy = fuzzyScore(p, query);
  return fuzzy === undefined ? undefined : 10_000 + fuzzy;
}

/** The best `limit` paths for `query` (case-insensitive; `\` typed on Windows counts as `/`). */
export function matchFiles(paths: readonly string[], query: string, limit = MAX_FILE_SUGGESTIONS): string[] {
  const q = query.trim().toLowerCase().replace(/\\/g, '/');
  const scored: Array<{ path: string; score: number }> = [];
  for (const path of paths) {
    const score = rank(path, q);
    if (score !== undefined) scored.push({ path, score: score + Math.min(path.length, 999) / 1000 });
  }
  scored.sort((a, b) => a.score - b.score || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}
