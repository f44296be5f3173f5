/** `@path/to/file` mentions typed in a prompt. Pure: no DOM. */

/** Characters a mentioned path cannot contain (they end the mention). */
const PATH_CHARS = String.raw`[^\s@\x60'"<>]`;
const MENTION = new RegExp(String.raw`(?:^|\s)@(${PATH_CHARS}+)`, 'g');
const TYPING = new RegExp(String.raw`(?:^|\s)@(${PATH_CHARS}*)$`);
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

/** Paths after an `@` at the start or after whitespace; trailing punctuation is not part of the path. */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(MENTION)) {
    const path = (m[1] ?? '').replace(TRAILING_PUNCTUATION, '');
    if (path !== '' && /[\w]/.test(path)) found.add(path);
  }
  return [...found];
}

/** Whether `path` can be written as a mention (no spaces, quotes, `@`, `<`, `>`). */
export function isMentionable(path: string): boolean {
  return new RegExp(`^${PATH_CHARS}+$`).test(path);
}

/** The mention being typed at the caret: where its `@` is and what follows it so far; undefined when not in one. */
export function mentionAtCaret(text: string, caret: number): { start: number; end: number; query: string } | undefined {
  const m = TYPING.exec(text.slice(0, caret));
  if (m === null) return undefined;
  const query = m[1] ?? '';
  const start = caret - query.length - 1;
  const rest = new RegExp(`^${PATH_CHARS}*`).exec(text.slice(caret))?.[0] ?? '';
  return { start, end: caret + rest.length, query };
}

/** Replace the mention at `start..end` with `@path ` (one space after it); returns the text and the caret after it. */
export function insertMention(text: string, at: { start: number; end: number }, path: string): { text: string; caret: number } {
  const after = text.slice(at.end);
  const inserted = `@${path}${/^\s/.test(after) ? '' : ' '}`;
  return { text: text.slice(0, at.start) + inserted + after, caret: at.start + inserted.length + (/^\s/.test(after) ? 1 : 0) };
}

/** Remove every mention of `path` with the space before it (at the very start, the space after it). */
export function removeMention(text: string, path: string): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mention = new RegExp(String.raw`(^|\s)@${escaped}(?=[.,;:!?)\]}]*(?:\s|$))`, 'g');
  // only a mention at the start has no whitespace before it: mark it, then drop the mark and one space after it
  return text.replace(mention, (_m, before: string) => (before === '' ? '\0' : '')).replace(/^\0[ \t]?/, '');
}

/** The mentions to show as chips: every complete one, not the one still being typed at the caret. */
export function attachedMentions(text: string, caret: number | undefined): string[] {
  const typing = caret === undefined ? undefined : mentionAtCaret(text, caret);
  return extractMentions(typing === undefined ? text : text.slice(0, typing.start) + text.slice(typing.end));
}
