import { z } from 'zod';
import type { ToolDefinition } from './types';
import { ToolInputError } from './types';
import { resolveArgPath } from './tool-paths';

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_OUTPUT_CHARS = 256 * 1024;
/** Larger files are refused before reading (the error says to use grep, or head/tail/sed through run_command). */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
const BINARY_SNIFF_BYTES = 8192;

const schema = z.object({
  path: z.string().describe('File path, relative to the workspace root or absolute'),
  offset: z.number().int().min(1).optional().describe('1-based first line to read'),
  limit: z.number().int().min(1).optional().describe(`Max lines (default ${READ_DEFAULT_LIMIT})`),
});

/** True when the first 8 KB hold a NUL byte: the same heuristic git and grep use. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

function numbered(lineNumber: number, line: string): string {
  const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
  return `${String(lineNumber).padStart(6)}\t${text}`;
}

export const readFileTool: ToolDefinition<typeof schema> = {
  name: 'read_file',
  description:
    'Read a text file; lines are numbered like `cat -n`. Use offset/limit to page through large files. Files over 10 MB ' +
    'are refused: use grep, or run_command with head/tail/sed.',
  inputSchema: schema,
  readOnly: true,
  permissionTarget(args, ctx) {
    const resolved = resolveArgPath(ctx.cwd, args.path);
    return { ruleTool: 'Read', paths: [resolved.real], description: `Read ${resolved.relative}` };
  },
  async run(args, ctx) {
    const resolved = resolveArgPath(ctx.cwd, args.path);
    const shown = resolved.relative;
    let bytes: Buffer | null;
    try {
      bytes = await ctx.files.readBytes(resolved.real, { maxBytes: READ_MAX_FILE_BYTES });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') throw new ToolInputError(`${shown} is a directory; use list_files to see its files`);
      throw new ToolInputError(`cannot read ${shown}: ${(err as Error).message}`);
    }
    if (bytes === null) throw new ToolInputError(`file not found: ${shown}`);
    if (looksBinary(bytes)) {
      throw new ToolInputError(`${shown} is a binary file (${bytes.length} bytes); read_file only shows text files`);
    }
    const text = bytes.toString('utf8');
    if (text === '') return { output: `(${shown} is empty)` };
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    const total = lines.length;
    const first = args.offset ?? 1;
    if (first > total) {
      throw new ToolInputError(`offset ${first} is past the end of ${shown}, which has ${total} lines`);
    }
    const last = Math.min(total, first - 1 + (args.limit ?? READ_DEFAULT_LIMIT));
    const out: string[] = [];
    let size = 0;
    let lineNumber = first;
    for (; lineNumber <= last; lineNumber++) {
      const entry = numbered(lineNumber, (lines[lineNumber - 1] ?? '').replace(/\r$/, ''));
      if (size + entry.length + 1 > READ_MAX_OUTPUT_CHARS && out.length > 0) break;
      out.push(entry);
      size += entry.length + 1;
    }
    const shownLast = lineNumber - 1;
    if (shownLast < total) {
      const why = shownLast < last ? `output reached the ${READ_MAX_OUTPUT_CHARS / 1024} KiB cap` : 'line limit reached';
      out.push(`[showing lines ${first}-${shownLast} of ${total} (${why}); call read_file with offset=${shownLast + 1} to read more]`);
    }
    return { output: out.join('\n') };
  },
};
