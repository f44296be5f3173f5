import { promises as fs } from 'node:fs';
import * as z from '../../protocol/zod';
import type { ToolContext, ToolDefinition } from './types';
import { fileChunks, readLinePage } from './line-pages';
import { ToolInputError } from './types';
import { resolveArgPath } from './tool-paths';

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_OUTPUT_CHARS = 256 * 1024;
/** Larger files are read only a page at a time (offset/limit); a whole read is refused and the error says so. */
export const READ_MAX_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 2000;
const BINARY_SNIFF_BYTES = 8192;

// Built on first use (z.lazy): the CLI carries this tool's JSON Schema ready-made (see esbuild.mjs), so a start
// builds no tool schema until a call comes.
const schema = z.lazy(() =>
  z.object({
    path: z.string().describe('File path, relative to the workspace root or absolute'),
    offset: z.number().int().min(1).optional().describe('1-based first line to read'),
    limit: z.number().int().min(1).optional().describe(`Max lines (default ${READ_DEFAULT_LIMIT})`),
  }),
);

/** True when the first 8 KB hold a NUL byte: the same heuristic git and grep use. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

function numbered(lineNumber: number, line: string, longer: boolean): string {
  const cut = longer || line.length > MAX_LINE_CHARS;
  const text = cut ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut at ${MAX_LINE_CHARS} chars]` : line;
  return `${String(lineNumber).padStart(6)}\t${text}`;
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The content to page through: a proposal's text (already in memory), or the file on disk read through a handle. */
async function openSource(ctx: ToolContext, absPath: string, shown: string, wholeFile: boolean): Promise<{ size: number; chunks: AsyncIterable<Buffer> | Iterable<Buffer>; close(): Promise<void> }> {
  if (!ctx.files.readsFromDisk(absPath)) {
    // A proposal's text or the editor's buffer: whole, in memory (the disk size is still checked first).
    let bytes: Buffer | null;
    try {
      bytes = await ctx.files.readBytes(absPath, { maxBytes: READ_MAX_FILE_BYTES });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw new ToolInputError(`${shown} is a directory; use list_files to see its files`);
      throw new ToolInputError(`cannot read ${shown}: ${(err as Error).message}`);
    }
    if (bytes === null) throw new ToolInputError(`file not found: ${shown}`);
    return { size: bytes.length, chunks: [bytes], close: async () => {} };
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(absPath, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolInputError(`file not found: ${shown}`);
    throw new ToolInputError(`cannot read ${shown}: ${(err as Error).message}`);
  }
  const info = await handle.stat();
  if (info.isDirectory()) {
    await handle.close();
    throw new ToolInputError(`${shown} is a directory; use list_files to see its files`);
  }
  if (wholeFile && info.size > READ_MAX_FILE_BYTES) {
    await handle.close();
    throw new ToolInputError(
      `${shown} is ${megabytes(info.size)} (${info.size} bytes), over the ${megabytes(READ_MAX_FILE_BYTES)} limit for reading a whole file: read it in pages with offset and limit (e.g. offset=1, limit=${READ_DEFAULT_LIMIT}), or find the lines you need with grep`,
    );
  }
  return { size: info.size, chunks: fileChunks(handle), close: () => handle.close() };
}

export const readFileTool: ToolDefinition<typeof schema> = {
  name: 'read_file',
  description:
    'Read a text file; lines are numbered like `cat -n`. Use offset/limit to page through large files; files over 10 MB ' +
    'are read only in pages (give offset and limit).',
  inputSchema: schema,
  readOnly: true,
  permissionTarget(args, ctx) {
    const resolved = resolveArgPath(ctx.cwd, args.path);
    return { ruleTool: 'Read', paths: [resolved.real], description: `Read ${resolved.relative}` };
  },
  async run(args, ctx) {
    const resolved = resolveArgPath(ctx.cwd, args.path);
    const shown = resolved.relative;
    const source = await openSource(ctx, resolved.real, shown, args.offset === undefined && args.limit === undefined);
    try {
      const first = args.offset ?? 1;
      const last = first - 1 + (args.limit ?? READ_DEFAULT_LIMIT);
      const page = await readLinePage(refusingBinary(source.chunks, shown, source.size), {
        first,
        last,
        maxOutputChars: READ_MAX_OUTPUT_CHARS,
        maxLineBytes: MAX_LINE_CHARS * 4 + 4,
        // Up to the whole-file limit the total is counted (constant memory); past it reading stops after the page.
        countAll: source.size <= READ_MAX_FILE_BYTES,
        format: numbered,
      });
      if (page.total === 0) return { output: `(${shown} is empty)` };
      if (page.total !== undefined && first > page.total) {
        throw new ToolInputError(`offset ${first} is past the end of ${shown}, which has ${page.total} lines`);
      }
      const out = page.entries;
      const more = page.total === undefined ? page.entries.length > 0 : page.lastShown < page.total;
      if (more) {
        const why = page.outputCapped ? `output reached the ${READ_MAX_OUTPUT_CHARS / 1024} KiB cap` : 'line limit reached';
        const of = page.total === undefined ? `a ${megabytes(source.size)} file` : String(page.total);
        out.push(`[showing lines ${first}-${page.lastShown} of ${of} (${why}); call read_file with offset=${page.lastShown + 1} to read more]`);
      }
      if (out.length === 0) throw new ToolInputError(`offset ${first} is past the end of ${shown}`);
      return { output: out.join('\n') };
    } finally {
      await source.close();
    }
  },
};

/** The chunks, refusing binary content (a NUL in the first 8 KB) before any line is read. */
async function* refusingBinary(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, shown: string, size: number): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && looksBinary(chunk)) throw new ToolInputError(`${shown} is a binary file (${size} bytes); read_file only shows text files`);
    first = false;
    yield chunk;
  }
}
