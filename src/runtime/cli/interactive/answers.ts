/**
 * Parsing of what the user types at the session's questions: one-letter (or whole-word) choices such as
 * `[o]nce / [s]ession / [d]eny`, and file picks such as `1,3` or `1-2`.
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

export type PickResult = { ok: true; indexes: number[] } | { ok: false; error: string };

/**
 * Parses a selection of 1-based item numbers: `1,3`, `1-2`, `2 4`, `all`. Returns sorted 0-based indexes without
 * duplicates, or an error naming the part that is wrong.
 */
export function parsePick(answer: string, count: number): PickResult {
  const text = answer.trim().toLowerCase().replace(/\s*-\s*/g, '-');
  const example = count > 1 ? `e.g. 1,${count} or 1-${count}` : 'e.g. 1';
  if (!text) return { ok: false, error: `type the numbers of the files to apply (${example}), or "all"` };
  if (text === 'all' || text === '*') return { ok: true, indexes: Array.from({ length: count }, (_, i) => i) };
  const picked = new Set<number>();
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
    const single = /^\d+$/.test(part) ? Number(part) : undefined;
    const [from, to] = range ? [Number(range[1]), Number(range[2])] : [single, single];
    if (from === undefined || to === undefined) return { ok: false, error: `"${part}" is not a number or a range (${example})` };
    if (from > to) return { ok: false, error: `the range "${part}" runs backwards; write ${to}-${from}` };
    if (from < 1 || to > count) return { ok: false, error: `"${part}" is out of range: the files are numbered 1 to ${count}` };
    for (let n = from; n <= to; n++) picked.add(n - 1);
  }
  return { ok: true, indexes: [...picked].sort((a, b) => a - b) };
}
