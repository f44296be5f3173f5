import type readline from 'node:readline';

export interface LineInputOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** True on a terminal: line editing, history, and Ctrl-C arriving as a key instead of a signal. */
  terminal: boolean;
}

/**
 * The session's one reader of the keyboard (Node's readline). Questions are asked one at a time with `ask`, which
 * resolves with the typed line, or null when the question was cancelled or the input closed (Ctrl-D).
 * Ctrl-C is reported to `onInterrupt` (with whether text was typed); lines typed while nothing is asked go to `onStrayLine`.
 */
export class LineInput {
  onInterrupt: (hadText: boolean) => void = () => undefined;
  onStrayLine: (line: string) => void = () => undefined;
  onClose: () => void = () => undefined;

  private readonly rl: readline.Interface;
  private waiting: ((line: string | null) => void) | undefined;
  private closed = false;
  private readonly output: NodeJS.WritableStream;

  constructor(opts: LineInputOptions) {
    this.output = opts.output;
    // node:readline loads only for an interactive session: a `-p` start never needs it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createInterface } = require('node:readline') as typeof import('node:readline');
    this.rl = createInterface({ input: opts.input, output: opts.output, terminal: opts.terminal, historySize: 500, prompt: '' });
    this.rl.on('line', (line) => {
      const waiter = this.waiting;
      if (waiter) {
        this.waiting = undefined;
        this.rl.setPrompt('');
        waiter(line);
      } else {
        this.onStrayLine(line);
      }
    });
    this.rl.on('SIGINT', () => this.onInterrupt(this.rl.line.length > 0));
    this.rl.on('close', () => {
      this.closed = true;
      this.settle(null);
      this.onClose();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  get isAsking(): boolean {
    return this.waiting !== undefined;
  }

  /** Shows `prompt` and resolves with the next line typed (null when cancelled or closed). One question at a time. */
  ask(prompt: string): Promise<string | null> {
    if (this.closed) return Promise.resolve(null);
    this.settle(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.rl.setPrompt(prompt);
      this.rl.prompt();
    });
  }

  /** Cancels the open question (it resolves with null), drops what was typed and moves to a new line. */
  cancel(mark = '^C'): void {
    if (!this.waiting) return;
    this.clearTypedText();
    this.rl.setPrompt('');
    this.writeRaw(`${mark}\n`);
    this.settle(null);
  }

  /** Drops the text typed so far at the open question, keeping the question open. */
  clearTypedText(): void {
    if (this.rl.line.length === 0) return;
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
  }

  close(): void {
    if (!this.closed) this.rl.close();
  }

  private writeRaw(s: string): void {
    this.output.write(s);
  }

  private settle(line: string | null): void {
    const waiter = this.waiting;
    this.waiting = undefined;
    waiter?.(line);
  }
}
