/** What the MCP layer shares without loading the client library: settings errors, `${env:NAME}`, limits. */

/** Which transport reached a server, for `mcp list` / `mcp test` and the registry. */
export type TransportKind = 'stdio' | 'streamable-http' | 'sse';

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
