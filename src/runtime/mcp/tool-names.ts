/**
 * Names of MCP servers and of their tools as the model sees them: `mcp__<server>__<tool>`, within what every provider
 * accepts as a tool name (`^[a-zA-Z0-9_-]{1,64}$`). Kept free of imports: the permission rules use it too.
 */

export const MCP_TOOL_PREFIX = 'mcp__';
export const MCP_NAME_SEPARATOR = '__';
/** The longest tool name providers accept. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** A server name: letters, digits, `-`, and single `_` between them (so `__` always separates server from tool). */
export const SERVER_NAME_PATTERN = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
export const MAX_SERVER_NAME_LENGTH = 32;
export const SERVER_NAME_HELP = `letters, digits, "-" and single "_" (no "__"), at most ${MAX_SERVER_NAME_LENGTH} characters, e.g. "github" or "my-db"`;

/** Why `name` cannot name an MCP server, or undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  if (name.length > MAX_SERVER_NAME_LENGTH || !SERVER_NAME_PATTERN.test(name)) return `"${name}" is not a valid server name: use ${SERVER_NAME_HELP}`;
  return undefined;
}

function shortHash(text: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- only long or clashing names need it, not CLI start
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The name the model sees for tool `tool` of server `server`: characters providers refuse become `_`, and a name over
 * 64 characters is cut and ends with a hash of the server's tool name (the same input always gives the same name, so a
 * permission rule naming the tool finds it).
 */
export function exposedToolName(server: string, tool: string): string {
  const base = `${MCP_TOOL_PREFIX}${server}${MCP_NAME_SEPARATOR}`;
  const clean = tool.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  const full = base + clean;
  if (full.length <= MAX_TOOL_NAME_LENGTH) return full;
  const suffix = `_${shortHash(tool)}`;
  return full.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
}

/** The `mcp__<server>__` prefix every tool of that server starts with. */
export function serverToolPrefix(server: string): string {
  return `${MCP_TOOL_PREFIX}${server}${MCP_NAME_SEPARATOR}`;
}

/** Makes `name` unique among `taken` (two server tools that sanitize alike): a hash of the original name is appended. */
export function uniqueToolName(name: string, original: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let i = 0; ; i++) {
    const suffix = `_${shortHash(`${original}#${i}`)}`;
    const candidate = name.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}
