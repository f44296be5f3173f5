/**
 * The MCP servers a client names in `session/new` / `session/load`, as entries of our `mcpServers` config: the
 * session's own MCP client starts them like configured ones. stdio and Streamable HTTP are supported (`mcpCapabilities`
 * says `http: true`); SSE-only servers are refused with a message.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { McpServersSchema, type McpServersConfig } from '../mcp/server-config';
import { MAX_SERVER_NAME_LENGTH, serverNameProblem } from '../mcp/tool-names';

export class McpServerParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpServerParamsError';
  }
}

const pairs = (list: Array<{ name: string; value: string }>): Record<string, string> => Object.fromEntries(list.map((p) => [p.name, p.value]));

/**
 * A client's display name ("Context 7", "github.com") as a server name our tool names can carry (`mcp__<server>__`):
 * other characters become "-", "__" becomes "_", cut to the longest name; a name taken already gets "-2", "-3", ...
 */
export function serverNameFor(name: string, taken: ReadonlySet<string>): string {
  if (!serverNameProblem(name) && !taken.has(name)) return name;
  const base =
    name
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .replace(/_{2,}/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, MAX_SERVER_NAME_LENGTH)
      .replace(/_+$/, '') || 'server';
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = `${base.slice(0, MAX_SERVER_NAME_LENGTH - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!taken.has(candidate) && !serverNameProblem(candidate)) return candidate;
  }
}

/** Validates and converts; throws McpServerParamsError naming the server and what is wrong. */
export function acpMcpServers(servers: McpServer[]): McpServersConfig {
  const raw: Record<string, unknown> = {};
  const given = new Set<string>();
  for (const s of servers) {
    if (given.has(s.name)) throw new McpServerParamsError(`two MCP servers are named "${s.name}": give each a different name`);
    given.add(s.name);
    if ('type' in s && s.type === 'sse') {
      throw new McpServerParamsError(`MCP server "${s.name}" uses SSE, which agentcli does not support: use its Streamable HTTP url or a stdio command`);
    }
    const name = serverNameFor(s.name, new Set(Object.keys(raw)));
    if ('type' in s && s.type === 'http') raw[name] = { url: s.url, headers: pairs(s.headers) };
    else if ('command' in s) raw[name] = { command: s.command, args: s.args, env: pairs(s.env) };
  }
  const parsed = McpServersSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw new McpServerParamsError(`MCP server ${where ? `"${where}"` : ''}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
