import type { Readable, Writable } from 'node:stream';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  type DataCallback,
  type Disposable,
  type Logger,
  type Message,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { RpcErrorCode } from './errors';

/** Largest accepted line (one JSON-RPC message). Longer lines are discarded and answered with -32600. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Deepest nesting of objects and arrays a request's params may have (`params` itself is level 1). Deeper params are
 * refused with -32602 naming the path where the limit was crossed.
 */
export const MAX_PARAMS_DEPTH = 64;

export interface ProtocolViolation {
  code: typeof RpcErrorCode.ParseError | typeof RpcErrorCode.InvalidRequest;
  message: string;
  /** The offending message's id when it had a usable one. */
  id: string | number | null;
}

/**
 * Checks the JSON-RPC 2.0 envelope of a parsed value. Returns a violation, or undefined when it is a
 * well-formed request, notification or response.
 */
export function checkEnvelope(value: unknown): ProtocolViolation | undefined {
  const invalid = (message: string, id: string | number | null = null): ProtocolViolation => ({
    code: RpcErrorCode.InvalidRequest,
    message,
    id,
  });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(Array.isArray(value) ? 'batch requests are not supported: send one message per line' : 'a message must be a JSON object');
  }
  const msg = value as Record<string, unknown>;
  const rawId = msg.id;
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  if (msg.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"', id);
  if ('id' in msg && rawId !== null && typeof rawId !== 'string' && typeof rawId !== 'number') {
    return invalid('"id" must be a string, a number or null');
  }
  if ('method' in msg) {
    if (typeof msg.method !== 'string' || msg.method.length === 0) return invalid('"method" must be a non-empty string', id);
    if ('params' in msg && (typeof msg.params !== 'object' || msg.params === null)) {
      return invalid('"params" must be an object or an array', id);
    }
    return undefined;
  }
  if ('result' in msg || 'error' in msg) {
    if (!('id' in msg)) return invalid('a response needs an "id"');
    return undefined;
  }
  return invalid('a message needs a "method" (request or notification) or a "result"/"error" (response)', id);
}

/** Splits a byte stream into lines, bounded by `maxBytes` per line. */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (bytes: number) => void,
  ) {}

  push(data: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = data.indexOf(0x0a, start);
      if (nl === -1) {
        this.append(data.subarray(start));
        return;
      }
      this.append(data.subarray(start, nl));
      this.flushLine();
      start = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarding) {
      this.size += part.length;
      return;
    }
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.discarding = true;
      this.chunks = [];
      return;
    }
    this.chunks.push(part);
  }

  private flushLine(): void {
    if (this.discarding) {
      this.onOversize(this.size);
    } else if (this.chunks.length > 0) {
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
      if (line.trim().length > 0) this.onLine(line);
    }
    this.chunks = [];
    this.size = 0;
    this.discarding = false;
  }
}

/** Reads newline-delimited JSON-RPC messages. Malformed lines are reported, never thrown. */
export class NdjsonMessageReader extends AbstractMessageReader {
  constructor(
    private readonly input: Readable,
    private readonly onViolation: (v: ProtocolViolation) => void,
    private readonly maxBytes = DEFAULT_MAX_MESSAGE_BYTES,
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const splitter = new LineSplitter(
      this.maxBytes,
      (line) => {
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (e) {
          this.onViolation({ code: RpcErrorCode.ParseError, message: `parse error: ${(e as Error).message}`, id: null });
          return;
        }
        const violation = checkEnvelope(value);
        if (violation) this.onViolation(violation);
        else callback(value as Message);
      },
      (bytes) =>
        this.onViolation({
          code: RpcErrorCode.InvalidRequest,
          message: `message of ${bytes} bytes exceeds the limit of ${this.maxBytes} bytes`,
          id: null,
        }),
    );
    const onData = (d: Buffer | string) => splitter.push(typeof d === 'string' ? Buffer.from(d) : d);
    const onError = (e: Error) => this.fireError(e);
    const onClose = () => this.fireClose();
    this.input.on('data', onData);
    this.input.on('error', onError);
    this.input.on('end', onClose);
    this.input.on('close', onClose);
    return {
      dispose: () => {
        this.input.off('data', onData);
        this.input.off('error', onError);
        this.input.off('end', onClose);
        this.input.off('close', onClose);
      },
    };
  }
}

/** Writes one JSON message per line. */
export class NdjsonMessageWriter extends AbstractMessageWriter {
  private errorCount = 0;
  constructor(private readonly output: Writable) {
    super();
    output.on('error', (e) => this.fireError(e));
    output.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    return this.writeRaw(msg);
  }

  writeRaw(msg: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.output.destroyed || this.output.writableEnded) {
        reject(new Error('output stream is closed'));
        return;
      }
      this.output.write(JSON.stringify(msg) + '\n', (err) => {
        if (err) {
          this.errorCount++;
          this.fireError(err, msg as Message, this.errorCount);
          reject(err);
        } else resolve();
      });
    });
  }

  end(): void {}
}

export interface NdjsonConnectionOptions {
  maxMessageBytes?: number;
  logger?: Logger;
  /** Answer malformed inbound lines with JSON-RPC errors (servers do; clients only report). */
  answerViolations?: boolean;
  onViolation?: (v: ProtocolViolation) => void;
}

const silentLogger: Logger = { error: () => {}, warn: () => {}, info: () => {}, log: () => {} };

/** A vscode-jsonrpc connection over newline-delimited JSON. */
export function createNdjsonConnection(input: Readable, output: Writable, opts: NdjsonConnectionOptions = {}): MessageConnection {
  const writer = new NdjsonMessageWriter(output);
  const reader = new NdjsonMessageReader(
    input,
    (v) => {
      opts.onViolation?.(v);
      if (opts.answerViolations) {
        writer.writeRaw({ jsonrpc: '2.0', id: v.id, error: { code: v.code, message: v.message } }).catch(() => {});
      }
    },
    opts.maxMessageBytes,
  );
  return createMessageConnection(reader, writer, opts.logger ?? silentLogger);
}
