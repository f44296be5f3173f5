/** Helpers that explain why an exact search text was not found, or where it occurs. */

/** 1-based line numbers where each occurrence of `needle` starts. */
export function occurrenceLines(haystack: string, needle: string): number[] {
  const lines: number[] = [];
  let from = 0;
  let line = 1;
  let counted = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return lines;
    for (let i = counted; i < at; i++) if (haystack.charCodeAt(i) === 10) line++;
    counted = at;
    lines.push(line);
    from = at + needle.length;
  }
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Dice similarity of two strings over character bigrams, 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let shared = 0;
  for (const [gram, count] of ga) shared += Math.min(count, gb.get(gram) ?? 0);
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

/** The file line most similar to the first non-blank line of `needle`, when reasonably similar. */
export function closestLine(content: string, needle: string): { line: number; text: string } | null {
  const probe = needle.split('\n').map((l) => l.trim()).find((l) => l !== '');
  if (!probe) return null;
  let best: { line: number; text: string; score: number } | null = null;
  content.split('\n').forEach((text, index) => {
    const score = similarity(probe, text.trim());
    if (!best || score > best.score) best = { line: index + 1, text, score };
  });
  const found = best as { line: number; text: string; score: number } | null;
  return found && found.score >= 0.5 ? { line: found.line, text: found.text } : null;
}

/** Explain a failed exact match so the model can fix its old_text. */
export function explainNotFound(content: string, needle: string, shownPath: string): string {
  const parts = [`old_text was not found in ${shownPath}.`];
  if (collapseWhitespace(content).includes(collapseWhitespace(needle))) {
    parts.push('It matches when whitespace is ignored: copy the exact indentation and line breaks from read_file output (without the line-number prefix).');
  }
  const near = closestLine(content, needle);
  if (near) {
    const text = near.text.length > 200 ? `${near.text.slice(0, 200)}…` : near.text;
    parts.push(`Closest line ${near.line}: ${JSON.stringify(text.replace(/\r$/, ''))}`);
  }
  parts.push('Read the file again and retry with text copied exactly.');
  return parts.join(' ');
}
