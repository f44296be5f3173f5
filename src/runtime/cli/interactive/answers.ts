/**
 * Parsing of what the user types at the session's questions: one-letter (or whole-word) choices such as
 * `[o]nce / [s]ession / [d]eny`, and picks of files and hunks such as `1,3`, `1-2` or `2.1`.
 */

export interface ChoiceOption<T extends string> {
  value: T;
  /** The key the user types (one letter, lower case). */
  key: string;
  /** The label with the key shown in brackets, e.g. `[o]nce` or `alternati[v]e`. */
  label: string;
}

/** Builds a choice whose key is the letter at `keyIndex` of `word`. */
export function choice<T extends string>(value: T, word: string, keyIndex = 0): ChoiceOption<T> {
  const key = word.charAt(keyIndex).toLowerCase();
  return { value, key, label: `${word.slice(0, keyIndex)}[${word.charAt(keyIndex)}]${word.slice(keyIndex + 1)}` };
}

export function choiceMenu(options: ChoiceOption<string>[]): string {
  return options.map((o) => o.label).join(' / ');
}

/** The option the answer names (its key or its whole word, any case), or undefined. */
export function parseChoice<T extends string>(answer: string, options: ChoiceOption<T>[]): T | undefined {
  const a = answer.trim().toLowerCase();
  if (!a) return undefined;
  const byKey = options.find((o) => o.key === a);
  if (byKey) return byKey.value;
  return options.find((o) => o.label.replace(/[[\]]/g, '').toLowerCase() === a || o.value.toLowerCase() === a)?.value;
}

export type PickResult = { ok: true; files: number[]; hunks: Map<number, number[]> } | { ok: false; error: string };

/**
 * Parses a selection of a batch's files, numbered from 1 (`1,3`, `1-2`, `2 4`, `all`), and of single hunks of a file
 * (`2.1`, `2.1-3`), given each file's hunk count. `files` are the 0-based indexes of files taken whole; `hunks` maps a
 * file's index to its 0-based hunk indexes. Each error names the part that is wrong: not a number, a range that runs
 * backwards, a number out of range, a hunk of a file that has none, a file picked both whole and by hunk.
 */
export function parsePick(answer: string, hunkCounts: readonly number[]): PickResult {
  const count = hunkCounts.length;
  const text = answer.trim().toLowerCase().replace(/\s*-\s*/g, '-').replace(/\s*\.\s*/g, '.');
  const split = hunkCounts.findIndex((n) => n > 1);
  const example = `${count > 1 ? `e.g. 1,${count} or 1-${count}` : 'e.g. 1'}${split >= 0 ? ` or ${split + 1}.1` : ''}`;
  if (!text) return { ok: false, error: `type the numbers of the files to apply (${example}), or "all"` };
  if (text === 'all' || text === '*') return { ok: true, files: hunkCounts.map((_, i) => i), hunks: new Map() };
  const files = new Set<number>();
  const hunks = new Map<number, Set<number>>();
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    // files `N` or `N-M`, or hunks of file N: `N.K` or `N.K-L`
    const m = /^(\d+)(?:-(\d+)|\.(\d+)(?:-(\d+))?)?$/.exec(part);
    if (m === null) return { ok: false, error: `"${part}" is not a number or a range (${example})` };
    const file = Number(m[1]);
    const byHunk = m[3] !== undefined;
    const [from, to] = byHunk ? [Number(m[3]), Number(m[4] ?? m[3])] : [file, Number(m[2] ?? file)];
    if (from > to) return { ok: false, error: `the range "${part}" runs backwards; write ${byHunk ? `${file}.` : ''}${to}-${from}` };
    const [firstFile, lastFile] = byHunk ? [file, file] : [from, to];
    if (firstFile < 1 || lastFile > count) return { ok: false, error: `"${part}" is out of range: the files are numbered 1 to ${count}` };
    if (!byHunk) {
      for (let n = from; n <= to; n++) files.add(n - 1);
      continue;
    }
    const total = hunkCounts[file - 1] ?? 0;
    if (total === 0) return { ok: false, error: `file ${file} has no hunks to pick (it is created, deleted or unchanged as a whole): type ${file}` };
    if (from < 1 || to > total) return { ok: false, error: `"${part}" is out of range: the hunks of file ${file} are ${total === 1 ? `${file}.1 only` : `${file}.1 to ${file}.${total}`}` };
    const chosen = hunks.get(file - 1) ?? new Set<number>();
    for (let n = from; n <= to; n++) chosen.add(n - 1);
    hunks.set(file - 1, chosen);
  }
  const both = [...hunks.keys()].find((f) => files.has(f));
  if (both !== undefined) return { ok: false, error: `file ${both + 1} is picked whole and by hunk: type ${both + 1} for all of it, or only the hunks you want` };
  const sorted = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);
  return { ok: true, files: sorted(files), hunks: new Map(sorted(hunks.keys()).map((f) => [f, sorted(hunks.get(f)!)])) };
}
