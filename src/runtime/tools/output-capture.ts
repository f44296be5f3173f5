import { createWriteStream, promises as fs, type WriteStream } from 'node:fs';
import path from 'node:path';

export const HEAD_CHARS = 8 * 1024;
export const TAIL_CHARS = 8 * 1024;

/**
 * Keeps the first and last few KB of a command's output for the model while streaming everything to a log file.
 * The log file is kept only when the model's view had to be cut.
 */
export class OutputCapture {
  private head = '';
  private tail = '';
  private total = 0;
  private readonly log: WriteStream | null;
  private logError: string | null = null;

  constructor(readonly logPath: string) {
    let stream: WriteStream | null = null;
    try {
      stream = createWriteStream(logPath, { flags: 'w' });
      stream.on('error', (err) => {
        this.logError = err.message;
      });
    } catch (err) {
      this.logError = (err as Error).message;
    }
    this.log = stream;
  }

  static async create(outputDir: string, toolCallId: string): Promise<OutputCapture> {
    await fs.mkdir(outputDir, { recursive: true }).catch(() => undefined);
    const safeId = toolCallId.replace(/[^\w.-]/g, '_') || 'command';
    return new OutputCapture(path.join(outputDir, `${safeId}.log`));
  }

  append(chunk: string): void {
    this.total += chunk.length;
    this.log?.write(chunk);
    if (this.head.length < HEAD_CHARS) {
      const room = HEAD_CHARS - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk) this.tail = (this.tail + chunk).slice(-TAIL_CHARS);
  }

  get truncated(): boolean {
    return this.total > HEAD_CHARS + TAIL_CHARS;
  }

  /** Finish the log and return the text the model sees. */
  async finish(): Promise<string> {
    await new Promise<void>((resolve) => (this.log ? this.log.end(() => resolve()) : resolve()));
    if (!this.truncated) {
      await fs.rm(this.logPath, { force: true }).catch(() => undefined);
      return this.head + this.tail;
    }
    const cut = this.total - this.head.length - this.tail.length;
    const where = this.logError
      ? `the full output could not be saved: ${this.logError}`
      : `full output (${this.total} chars) saved to ${this.logPath}; read it with read_file`;
    return `${this.head}\n\n[... ${cut} characters cut; ${where} ...]\n\n${this.tail}`;
  }
}
