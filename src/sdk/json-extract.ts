/** Bounds the scan for an embedded value (characters visited in all) so a pathological answer cannot take quadratic time. */
const MAX_SCAN_STEPS = 2_000_000;

/** Where in the text the JSON value was found. */
export type JsonSource = 'whole' | 'fenced' | 'embedded';

export interface ExtractedJson {
  value: unknown;
  source: JsonSource;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Contents of ``` fenced blocks, `json`-tagged ones first. */
function fencedBlocks(text: string): string[] {
  const tagged: string[] = [];
  const other: string[] = [];
  for (const m of text.matchAll(/```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)```/g)) {
    const lang = (m[1] ?? '').toLowerCase();
    const body = m[2] ?? '';
    (lang === 'json' || lang === 'jsonc' ? tagged : other).push(body);
  }
  return [...tagged, ...other];
}

/** End index (exclusive) of the balanced object/array starting at `start`, or -1. Respects strings and escapes. */
function balancedEnd(text: string, start: number, budget: { steps: number }): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    if (--budget.steps <= 0) return -1;
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Finds the JSON value in a model's answer: the whole text, else a fenced code block, else the first
 * balanced object or array that parses. Undefined when there is none.
 */
export function extractJson(text: string): ExtractedJson | undefined {
  const whole = tryParse(text.trim());
  if (whole.ok) return { value: whole.value, source: 'whole' };
  for (const block of fencedBlocks(text)) {
    const parsed = tryParse(block.trim());
    if (parsed.ok) return { value: parsed.value, source: 'fenced' };
  }
  const budget = { steps: MAX_SCAN_STEPS };
  for (let i = 0; i < text.length && budget.steps > 0; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    const end = balancedEnd(text, i, budget);
    if (end === -1) continue;
    const parsed = tryParse(text.slice(i, end));
    if (parsed.ok) return { value: parsed.value, source: 'embedded' };
  }
  return undefined;
}
