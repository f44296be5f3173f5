/**
 * The MCP library's transports as this runtime opens them. stdio: the server process gets the runtime's environment
 * without secrets (provider keys and variables named like secrets, as for commands) plus its configured `env`, and its
 * stderr is kept as a short tail for error reports. HTTP: Streamable HTTP, then HTTP+SSE for older servers, both with
 * the configured headers and the guarded fetch of http-fetch.ts.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { commandEnvironment, type ShellEnvSettings } from '../secrets/command-env';
import { mcpFetch } from './http-fetch';
import type { McpServerConfig } from './server-config';
import { expandEnvReferences, type TransportKind } from './transport';

const STDERR_TAIL_CHARS = 2000;
/**
 * The longest line a stdio server may write. Lower than HTTP's MAX_MESSAGE_BYTES: the library's line buffer copies and
 * rescans what it holds on every read, so the cost of an endless line grows with the square of this bound (10 MiB,
 * the library's default: under a second; 32 MiB: several seconds).
 */
export const MAX_STDIO_MESSAGE_BYTES = 10 * 1024 * 1024;

/** A transport about to be connected, with what the connection reports about it. */
export interface OpenedTransport {
  kind: TransportKind;
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio; empty otherwise). */
  stderrTail(): string;
  /** Why the connection ended, when the transport knows more than "closed" (a stdio server's exit). */
  closeReason(): string;
  /** An error the library reported on the connection (not tied to a request). */
  noteError(error: Error): void;
}

export interface TransportContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  shellEnv: ShellEnvSettings;
}

/** The library's stdio transport, keeping its server's stderr tail and exit status and naming a start failure. */
class ServerProcessTransport extends StdioClientTransport {
  private tail = '';
  private exit = '';
  private tooBig = false;

  constructor(private readonly command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
    super({ command, args, env: env as Record<string, string>, cwd, stderr: 'pipe', maxBufferSize: MAX_STDIO_MESSAGE_BYTES });
    const decoder = new StringDecoder('utf8');
    this.stderr?.on('data', (chunk: Buffer) => (this.tail = (this.tail + decoder.write(chunk)).slice(-STDERR_TAIL_CHARS)));
  }

  override async start(): Promise<void> {
    try {
      await super.start();
    } catch (e) {
      throw new Error(`cannot start "${this.command}": ${(e as Error).message}`, { cause: e });
    }
    // The library does not report the exit status; its child process is read when it is there (else just "exited").
    const child = (this as unknown as { _process?: ChildProcess })._process;
    child?.once?.('exit', (code, signal) => (this.exit = signal ? `signal ${signal}` : `code ${code}`));
  }

  opened(): OpenedTransport {
    return {
      kind: 'stdio',
      transport: this,
      stderrTail: () => this.tail.trim(),
      closeReason: () =>
        this.tooBig ? `the server sent a message over ${MAX_STDIO_MESSAGE_BYTES} bytes; it was stopped` : `the server process exited${this.exit ? ` (${this.exit})` : ''}`,
      // The library reports an overlong line through onerror, then closes the transport.
      noteError: (e) => {
        if (/exceeded maximum size/.test(e.message)) this.tooBig = true;
      },
    };
  }
}

/** The transports to try in order: stdio; or Streamable HTTP, then HTTP+SSE for older servers. */
export function transportsFor(name: string, config: McpServerConfig, ctx: TransportContext): Array<() => OpenedTransport> {
  const key = `mcpServers.${name}`;
  if (config.command !== undefined) {
    const command = config.command;
    const env = { ...commandEnvironment(ctx.env, ctx.shellEnv).env };
    for (const [k, v] of Object.entries(config.env)) env[k] = expandEnvReferences(v, `${key}.env.${k}`, ctx.env);
    const cwd = path.resolve(ctx.cwd, config.cwd ?? '.');
    return [() => new ServerProcessTransport(command, config.args, env, cwd).opened()];
  }
  const url = new URL(config.url ?? '');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(config.headers)) headers[k] = expandEnvReferences(v, `${key}.headers.${k}`, ctx.env);
  const http = (kind: TransportKind, transport: Transport): OpenedTransport => ({
    kind,
    transport,
    stderrTail: () => '',
    closeReason: () => 'the server closed the connection',
    noteError: () => undefined,
  });
  return [
    () => http('streamable-http', new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: mcpFetch })),
    () => http('sse', new SSEClientTransport(url, { requestInit: { headers }, fetch: mcpFetch })),
  ];
}
