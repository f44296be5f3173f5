/** What the MCP client needs from a transport (stdio, Streamable HTTP, or the older HTTP+SSE). */
import type { JsonRpcMessage } from './json-rpc-peer';

export interface McpTransport {
  /** Opens the connection; messages and the end of the connection are reported through the callbacks. */
  start(onMessage: (message: unknown) => void, onClose: (error: Error) => void): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  /** Called once initialization succeeded (HTTP: the protocol version header, the server's notification stream). */
  initialized?(protocolVersion: string): void;
  close(): Promise<void>;
  /** The last lines the server wrote to stderr (stdio only). */
  stderrTail?(): string;
  /** Which transport this is, for `mcp list` / `mcp test`. */
  readonly kind: 'stdio' | 'streamable-http' | 'sse';
}

/** A server's settings cannot work as they are (restarting would not help): the message says what to fix. */
export class McpSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpSettingsError';
  }
}

/** Expands `${env:NAME}` in a configured value; a variable that is not set is an error naming it and the key. */
export function expandEnvReferences(value: string, where: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined) throw new McpSettingsError(`${where} refers to the environment variable ${name}, which is not set: set it or write the value directly`);
    return found;
  });
}

/** The largest single message a server may send (a bigger one is refused and the connection closed). */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
