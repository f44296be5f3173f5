/**
 * The MCP servers a client names in `session/new` / `session/load`, as entries of our `mcpServers` config: the
 * session's own MCP client starts them like configured ones. stdio and Streamable HTTP are supported (`mcpCapabilities`
 * says `http: true`); SSE-only servers are refused with a message.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { McpServersSchema, type McpServersConfig } from '../mcp/server-config';

export class McpServerParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpServerParamsError';
  }
}

const pairs = (list: Array<{ name: string; value: string }>): Record<string, string> => Object.fromEntries(list.map((p) => [p.name, p.value]));

/** Validates and converts; throws McpServerParamsError naming the server and what is wrong. */
export function acpMcpServers(servers: McpServer[]): McpServersConfig {
  const raw: Record<string, unknown> = {};
  for (const s of servers) {
    if (s.name in raw) throw new McpServerParamsError(`two MCP servers are named "${s.name}": give each a different name`);
    if ('type' in s && s.type === 'sse') {
      throw new McpServerParamsError(`MCP server "${s.name}" uses SSE, which agentcli does not support: use its Streamable HTTP url or a stdio command`);
    }
    if ('type' in s && s.type === 'http') raw[s.name] = { url: s.url, headers: pairs(s.headers) };
    else if ('command' in s) raw[s.name] = { command: s.command, args: s.args, env: pairs(s.env) };
  }
  const parsed = McpServersSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new McpServerParamsError(`MCP server ${where ? `"${where}"` : ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
