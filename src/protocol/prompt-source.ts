/**
 * The one rule, shared by the CLI and the SDK, that decides whether a system-prompt value (`--sys-prompt`,
 * `--append-system-prompt`, the SDK's `systemPrompt`, `appendSystemPrompt` and `instructions`) names a file or is
 * inline text:
 *
 *   a value is a file path when it is a single line without whitespace (at most 4096 characters) and it either
 *   contains a path separator (`/` or `\`), starts with `~`, or ends in a text-file extension
 *   (.md, .markdown, .txt, .prompt); anything else is inline text.
 *
 * A path must name an existing file; a missing one is an error, never sent as text. A file path with spaces goes
 * through `--sys-prompt-file` / `--append-system-prompt-file`, which always take a path.
 */
export const PROMPT_FILE_EXTENSIONS = ['.md', '.markdown', '.txt', '.prompt'] as const;

export const MAX_PROMPT_PATH_LENGTH = 4096;

export interface PromptSource {
  kind: 'text' | 'file';
  value: string;
}

/** True when `value` is to be read as a file path under the rule above. */
export function looksLikePromptPath(value: string): boolean {
  if (value.length === 0 || value.length > MAX_PROMPT_PATH_LENGTH || /\s/.test(value)) return false;
  if (/[\\/]/.test(value) || value.startsWith('~')) return true;
  const lower = value.toLowerCase();
  return PROMPT_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext) && lower.length > ext.length);
}

/** Classifies a value given to a "text or file" option. */
export function classifyPromptValue(value: string): PromptSource {
  return { kind: looksLikePromptPath(value) ? 'file' : 'text', value };
}

/** The message for a prompt file that does not exist (or is not a regular file). */
export function promptFileNotFoundMessage(option: string, value: string, resolved: string): string {
  const where = resolved === value ? '' : ` (${resolved})`;
  return `${option} "${value}"${where} not found; pass inline text or an existing file`;
}
