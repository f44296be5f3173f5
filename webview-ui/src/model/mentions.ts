/**
 * `@path/to/file` mentions typed in a prompt. Pure: no DOM.
 *
 * A path with a space, a quote character other than `"`, `@`, `<`, `>` or a backtick, or one that ends in punctuation
 * (which a bare mention leaves out) is written quoted: `@"My Notes/to do.md"`. Only a path with a `"` or a line
 * break cannot be mentioned.
 */

/** Characters a bare mention's path cannot contain (they end the mention). */
const PATH_CHARS = String.raw`[^\s@\x60'"<>]`;
/** What a quoted mention's path can hold: anything up to the closing quote on the same line. */
const QUOTED_CHARS = String.raw`[^"\r\n]`;
const MENTION = new RegExp(String.raw`(?:^|\s)@(?:"(${QUOTED_CHARS}+)"|(${PATH_CHARS}+))`, 'g');
const TYPING = new RegExp(String.raw`(?:^|\s)@(${PATH_CHARS}*)$`);
const TYPING_QUOTED = new RegExp(String.raw`(?:^|\s)@"(${QUOTED_CHARS}*)$`);
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;
const BARE_PATH = new RegExp(`^${PATH_CHARS}+$`);
const QUOTABLE_PATH = new RegExp(`^${QUOTED_CHARS}+$`);
const BARE_REST = new RegExp(`^${PATH_CHARS}*`);
const QUOTED_REST = new RegExp(`^${QUOTED_CHARS}*"`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Paths after an `@` at the start or after whitespace; a bare mention's trailing punctuation is not part of its path. */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const quoted = m[1];
    if (quoted !== undefined) {
      if (quoted.trim() !== '') found.add(quoted);
      continue;
    }
    const path = (m[2] ?? '').replace(TRAILING_PUNCTUATION, '');
    if (path !== '' && /[\w]/.test(path)) found.add(path);
  }
  return [...found];
}

/** Whether `path` can be written as a mention: anything but a `"` or a line break (quoted when it must be). */
export function isMentionable(path: string): boolean {
  return path.trim() !== '' && QUOTABLE_PATH.test(path);
}

/** `@path`, or `@"path"` when a bare mention would end early or drop the path's trailing punctuation. */
export function mentionText(path: string): string {
  const bare = BARE_PATH.test(path) && !TRAILING_PUNCTUATION.test(path) && /[\w]/.test(path);
  return bare ? `@${path}` : `@"${path}"`;
}

/**
 * The mention being typed at the caret: where its `@` is, where it ends (a quoted one through its closing quote, when
 * the line has one) and what is typed of its path so far; undefined when the caret is not in one.
 */
export function mentionAtCaret(text: string, caret: number): { start: number; end: number; query: string } | undefined {
  const before = text.slice(0, caret);
  const quoted = TYPING_QUOTED.exec(before);
  if (quoted !== null) {
    const query = quoted[1] ?? '';
    const rest = QUOTED_REST.exec(text.slice(caret))?.[0] ?? '';
    return { start: caret - query.length - 2, end: caret + rest.length, query };
  }
  const m = TYPING.exec(before);
  if (m === null) return undefined;
  const query = m[1] ?? '';
  const rest = BARE_REST.exec(text.slice(caret))?.[0] ?? '';
  return { start: caret - query.length - 1, end: caret + rest.length, query };
}

/** Replace the mention at `start..end` with the path's mention and one space; returns the text and the caret after it. */
export function insertMention(text: string, at: { start: number; end: number }, path: string): { text: string; caret: number } {
  const after = text.slice(at.end);
  const inserted = `${mentionText(path)}${/^\s/.test(after) ? '' : ' '}`;
  return { text: text.slice(0, at.start) + inserted + after, caret: at.start + inserted.length + (/^\s/.test(after) ? 1 : 0) };
}

/** Remove every mention of `path`, bare or quoted, with the space before it (at the very start, the space after it). */
export function removeMention(text: string, path: string): string {
  const escaped = escapeRegExp(path);
  const mention = new RegExp(String.raw`(^|\s)@(?:"${escaped}"|${escaped}(?=[.,;:!?)\]}]*(?:\s|$)))`, 'g');
  // only a mention at the start has no whitespace before it: mark it, then drop the mark and one space after it
  return text.replace(mention, (_m, before: string) => (before === '' ? '\0' : '')).replace(/^\0[ \t]?/, '');
}

/** The mentions to show as chips: every complete one, not the one still being typed at the caret. */
export function attachedMentions(text: string, caret: number | undefined): string[] {
  const typing = caret === undefined ? undefined : mentionAtCaret(text, caret);
  return extractMentions(typing === undefined ? text : text.slice(0, typing.start) + text.slice(typing.end));
}
