import { promises as fs } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

export interface PageRequest {
  /** 1-based first line to return. */
  first: number;
  /** Last line to return (inclusive). */
  last: number;
  /** The page ends before a line that would take the output past this many characters (at least one line is given). */
  maxOutputChars: number;
  /** Bytes of one line kept (the rest of a longer line is skipped, not held); `format` is told the line was longer. */
  maxLineBytes: number;
  /** Keep counting lines after the page to report the total (reads to the end, in constant memory). */
  countAll: boolean;
  format(lineNumber: number, text: string, longer: boolean): string;
}

export interface Page {
  entries: string[];
  /** Number of the last line in `entries` (first - 1 when none). */
  lastShown: number;
  /** Lines in the whole file, when the reading reached its end. */
  total: number | undefined;
  /** The page stopped at the output cap, before `last`. */
  outputCapped: boolean;
}

/** The chunks of a file read from an open handle, one reused buffer at a time (the consumer copies what it keeps). */
export async function* fileChunks(handle: fs.FileHandle): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * One page of lines from a stream of chunks: lines before the page are only counted, lines in it are kept (each cut
 * to `maxLineBytes`), and the reading stops after the page unless the total is wanted. Memory stays constant in the
 * size of the file. Lines end at `\n`; a trailing `\r` is dropped; a last line without `\n` still counts.
 */
export async function readLinePage(chunks: AsyncIterable<Buffer>, request: PageRequest): Promise<Page> {
  const entries: string[] = [];
  let outputChars = 0;
  let lineNumber = 1;
  let held: Buffer[] = [];
  let heldBytes = 0;
  let longer = false;
  let lineHasBytes = false;
  let pageDone = false;
  let outputCapped = false;

  const inPage = () => !pageDone && lineNumber >= request.first && lineNumber <= request.last;
  const hold = (part: Buffer) => {
    const room = request.maxLineBytes - heldBytes;
    if (part.length > room) longer = true;
    const kept = part.subarray(0, Math.max(0, room));
    if (kept.length > 0) {
      held.push(Buffer.from(kept));
      heldBytes += kept.length;
    }
  };
  const endLine = () => {
    if (inPage()) {
      const text = Buffer.concat(held).toString('utf8').replace(/\r$/, '');
      const entry = request.format(lineNumber, text, longer);
      if (outputChars + entry.length + 1 > request.maxOutputChars && entries.length > 0) {
        pageDone = true;
        outputCapped = true;
      } else {
        entries.push(entry);
        outputChars += entry.length + 1;
        if (lineNumber === request.last) pageDone = true;
      }
    }
    held = [];
    heldBytes = 0;
    longer = false;
    lineHasBytes = false;
    lineNumber++;
  };

  for await (const chunk of chunks) {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      if (end > start) {
        lineHasBytes = true;
        if (inPage()) hold(chunk.subarray(start, end));
      }
      if (newline < 0) break;
      endLine();
      start = newline + 1;
      if (pageDone && !request.countAll) return { entries, lastShown: request.first + entries.length - 1, total: undefined, outputCapped };
    }
  }
  if (lineHasBytes) endLine();
  return { entries, lastShown: request.first + entries.length - 1, total: lineNumber - 1, outputCapped };
}
