/** `@path/to/file` mentions typed in a prompt. Pure: no DOM. */

/** Paths after an `@` at the start or after whitespace; trailing punctuation is not part of the path. */
export function extractMentions(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/(?:^|\s)@([^\s@`'"<>]+)/g)) {
    const path = (m[1] ?? '').replace(/[.,;:!?)\]}]+$/, '');
    if (path !== '' && /[\w]/.test(path)) found.add(path);
  }
  return [...found];
}
