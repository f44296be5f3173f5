/** One readable line describing a tool call's arguments, for the compact tool card. Pure: no DOM. */

const MAX_SUMMARY = 120;
/** Argument names that best say what a call does, most telling first. */
const PREFERRED_KEYS = ['command', 'cmd', 'path', 'file_path', 'filePath', 'file', 'pattern', 'query', 'url', 'glob', 'paths', 'directory', 'dir'];

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SUMMARY ? `${flat.slice(0, MAX_SUMMARY - 1)}…` : flat;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

export function summarizeToolArgs(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args !== 'object' || Array.isArray(args)) return oneLine(valueText(args));
  const record = args as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 0) return '';
  const preferred = PREFERRED_KEYS.find((k) => record[k] !== undefined && record[k] !== null && valueText(record[k]) !== '');
  if (preferred !== undefined) {
    const rest = keys.length > 1 ? ` (+${keys.length - 1} more)` : '';
    const main = oneLine(valueText(record[preferred]));
    return main.length + rest.length > MAX_SUMMARY ? main : `${main}${rest}`;
  }
  return oneLine(keys.map((k) => `${k}=${valueText(record[k])}`).join(' '));
}

/** Keep the tail of streamed output within `max` characters. */
export function appendBounded(current: string, chunk: string, max: number): { text: string; truncated: boolean } {
  const joined = current + chunk;
  if (joined.length <= max) return { text: joined, truncated: false };
  return { text: joined.slice(joined.length - max), truncated: true };
}
