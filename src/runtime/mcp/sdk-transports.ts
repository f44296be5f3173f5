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
import { MAX_MESSAGE_BYTES, expandEnvReferences, type TransportKind } from './transport';

export const STDERR_TAIL_CHARS = 2000;

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

function stdioTransport(config: McpServerConfig & { command: string }, env: NodeJS.ProcessEnv, cwd: string): OpenedTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: env as Record<string, string>,
    cwd,
    stderr: 'pipe',
    maxBufferSize: MAX_MESSAGE_BYTES,
  });
  let tail = '';
  const decoder = new StringDecoder('utf8');
  transport.stderr?.on('data', (chunk: Buffer) => (tail = (tail + decoder.write(chunk)).slice(-STDERR_TAIL_CHARS)));
  let exit = '';
  let tooBig = '';
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } catch (e) {
      throw new Error(`cannot start "${config.command}": ${(e as Error).message}`, { cause: e });
    }
    // The library does not report the exit status; its child process is read when it is there (else "exited").
    const child = (transport as unknown as { _process?: ChildProcess })._process;
    child?.once?.('exit', (code, signal) => (exit = signal ? `signal ${signal}` : `code ${code}`));
  };
  return {
    kind: 'stdio',
    transport,
    stderrTail: () => tail.trim(),
    closeReason: () => (tooBig ? `the server sent a message over ${MAX_MESSAGE_BYTES} bytes; it was stopped` : `the server process exited${exit ? ` (${exit})` : ''}`),
    // The library reports an overlong line through onerror, then closes the transport.
    noteError: (e) => {
      if (/exceeded maximum size/.test(e.message)) tooBig = e.message;
    },
  };
}

/** The transports to try in order: stdio; or Streamable HTTP, then HTTP+SSE for older servers. */
export function transportsFor(name: string, config: McpServerConfig, ctx: TransportContext): Array<() => OpenedTransport> {
  const key = `mcpServers.${name}`;
  if (config.command !== undefined) {
    const command = config.command;
    const env = { ...commandEnvironment(ctx.env, ctx.shellEnv).env };
    for (const [k, v] of Object.entries(config.env)) env[k] = expandEnvReferences(v, `${key}.env.${k}`, ctx.env);
    const cwd = path.resolve(ctx.cwd, config.cwd ?? '.');
    return [() => stdioTransport({ ...config, command }, env, cwd)];
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
