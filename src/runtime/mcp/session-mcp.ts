/**
 * The session's link to its MCP servers: nothing is loaded while no server is configured (the client code is required
 * on first use, so runs without servers start as fast as before).
 */
import type { Config } from '../config/schema';
import type { McpTools, McpToolsOptions } from './mcp-tools';

/* eslint-disable @typescript-eslint/no-require-imports -- bundled as a lazy module: loaded only when a server is configured */
const loadMcpTools = () => (require('./mcp-tools') as typeof import('./mcp-tools')).McpTools;
/* eslint-enable @typescript-eslint/no-require-imports */

/** How long a run waits for servers still in their first connection attempt; then it starts without them. */
export const MCP_FIRST_CONNECT_WAIT_MS = 10_000;

/** Applies `config.mcpServers` to the running servers (starting the manager on the first server); returns it. */
export function configureMcp(current: McpTools | undefined, config: Config, opts: McpToolsOptions): McpTools | undefined {
  if (!current && Object.keys(config.mcpServers).length === 0) return undefined;
  const tools = current ?? new (loadMcpTools())(opts);
  tools.configure(config.mcpServers, config.shell.env);
  return tools;
}
