/**
 * `agentcli mcp list | add | remove | test`: the MCP servers of `mcpServers` in `~/.agentcli/config.json` (or the
 * project's `.agentcli/config.json` with `--project`).
 */
import { ConfigError } from '../config/errors';
import { loadConfig } from '../config/load';
import { projectConfigPath, userConfigPath } from '../config/paths';
import { isJsonObject, readConfigFile, type JsonObject } from '../config/read-file';
import { updateConfigFile } from '../config/write';
import type { McpServerConfig } from '../mcp/server-config';
import { serverNameProblem } from '../mcp/tool-names';
import type { CliIo } from './io';
import { UsageError } from './usage-error';

export const MCP_USAGE = `Usage: agentcli mcp <command>

  list                                         the configured servers and where each is defined
  add <name> [options] <command> [args...]     a local server, started as a program (stdio)
  add <name> [options] --url <url>             a remote server (Streamable HTTP, or HTTP+SSE for older servers)
  remove <name> [--project]                    remove a server
  test <name>                                  start the server, list its tools, stop it

Options of add:
  --project              write .agentcli/config.json of this folder (default: ~/.agentcli/config.json)
  --env KEY=VALUE        a variable for a local server (repeatable; "\${env:NAME}" copies one of yours)
  --cwd <dir>            the folder a local server starts in (default: the workspace)
  --header "Name: value" an HTTP header for a remote server (repeatable)
  --timeout <ms>         the longest one tool call may take (default 60000)

Local servers get your environment without secrets (provider keys and variables named like KEY, TOKEN, SECRET,
PASSWORD): pass what a server needs with --env. Their tools are mcp__<name>__<tool> and ask before each call unless
a rule allows them, e.g. permissions.allow ["Mcp(<name>:*)"].
`;

function fail(message: string): never {
  throw new UsageError(message);
}

function parseAdd(args: string[]): { name: string; project: boolean; server: Record<string, unknown> } {
  const [name, ...rest] = args;
  if (name === undefined || name.startsWith('-')) fail('add needs a server name first: agentcli mcp add <name> <command> [args...]');
  const problem = serverNameProblem(name);
  if (problem) fail(problem);
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let project = false;
  let url: string | undefined;
  let cwd: string | undefined;
  let timeoutMs: number | undefined;
  let i = 0;
  const value = (flag: string): string => {
    const v = rest[++i];
    if (v === undefined) fail(`${flag} needs a value`);
    return v;
  };
  for (; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-')) break;
    if (arg === '--project') project = true;
    else if (arg === '--url') url = value(arg);
    else if (arg === '--cwd') cwd = value(arg);
    else if (arg === '--timeout') {
      timeoutMs = Number(value(arg));
      if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) fail('--timeout needs a positive number of milliseconds, e.g. --timeout 120000');
    } else if (arg === '--env') {
      const kv = value(arg);
      const eq = kv.indexOf('=');
      if (eq <= 0) fail(`--env takes KEY=VALUE, got "${kv}"`);
      env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else if (arg === '--header') {
      const kv = value(arg);
      const colon = kv.indexOf(':');
      if (colon <= 0) fail(`--header takes "Name: value", got "${kv}"`);
      headers[kv.slice(0, colon).trim()] = kv.slice(colon + 1).trim();
    } else fail(`unknown option ${arg}`);
  }
  const command = rest.slice(i);
  const extra = timeoutMs !== undefined ? { timeoutMs } : {};
  if (url !== undefined) {
    if (command.length > 0) fail(`a server is either a command or a --url, not both (got the command "${command.join(' ')}")`);
    if (Object.keys(env).length > 0 || cwd !== undefined) fail('--env and --cwd are for local servers; a --url server takes --header');
    return { name, project, server: { url, ...(Object.keys(headers).length ? { headers } : {}), ...extra } };
  }
  const [program, ...programArgs] = command;
  if (program === undefined) fail('add needs the command that starts the server (e.g. agentcli mcp add fs npx -y my-mcp-server) or --url <url>');
  if (Object.keys(headers).length > 0) fail('--header is for --url servers');
  return {
    name,
    project,
    server: { command: program, ...(programArgs.length ? { args: programArgs } : {}), ...(Object.keys(env).length ? { env } : {}), ...(cwd ? { cwd } : {}), ...extra },
  };
}

function serversIn(file: string): JsonObject {
  let raw: JsonObject | undefined;
  try {
    raw = readConfigFile(file);
  } catch {
    return {};
  }
  const servers = raw?.mcpServers;
  return isJsonObject(servers) ? servers : {};
}

function describe(server: McpServerConfig): string {
  if (server.url !== undefined) return `http   ${server.url}`;
  return `stdio  ${[server.command ?? '', ...server.args].join(' ')}`;
}

function list(io: CliIo): number {
  const { config, userFile, projectFile } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: (l) => io.stderr(`${l}\n`) });
  const names = Object.keys(config.mcpServers);
  if (names.length === 0) {
    io.stdout('No MCP servers configured. Add one with: agentcli mcp add <name> <command> [args...]  (or --url <url>)\n');
    return 0;
  }
  const inProject = serversIn(projectFile);
  const width = Math.max(...names.map((n) => n.length));
  for (const name of names) {
    const server = config.mcpServers[name] as McpServerConfig;
    const where = name in inProject ? projectFile : userFile;
    io.stdout(`${name.padEnd(width)}  ${describe(server)}${server.enabled ? '' : '  (disabled)'}  [${where}]\n`);
  }
  return 0;
}

async function add(args: string[], io: CliIo): Promise<number> {
  const { name, project, server } = parseAdd(args);
  const file = project ? projectConfigPath(io.cwd) : userConfigPath(io.home);
  await updateConfigFile(file, (data) => {
    const servers = isJsonObject(data.mcpServers) ? data.mcpServers : {};
    if (name in servers) throw new ConfigError(`${file}: an MCP server "${name}" is already configured there; remove it first: agentcli mcp remove ${name}${project ? ' --project' : ''}`, file);
    return { ...data, mcpServers: { ...servers, [name]: server } };
  });
  io.stdout(`Added MCP server "${name}" to ${file}. Check it with: agentcli mcp test ${name}\n`);
  return 0;
}

async function remove(args: string[], io: CliIo): Promise<number> {
  const project = args.includes('--project');
  const rest = args.filter((a) => a !== '--project');
  const unknown = rest.find((a) => a.startsWith('-'));
  if (unknown) fail(`unknown option ${unknown}`);
  if (rest.length !== 1) fail('expected: agentcli mcp remove <name> [--project]');
  const name = rest[0] as string;
  const file = project ? projectConfigPath(io.cwd) : userConfigPath(io.home);
  if (!(name in serversIn(file))) {
    const other = project ? userConfigPath(io.home) : projectConfigPath(io.cwd);
    const hint = name in serversIn(other) ? `; it is in ${other}: use agentcli mcp remove ${name}${project ? '' : ' --project'}` : '';
    io.stderr(`agentcli mcp: no MCP server "${name}" in ${file}${hint}\n`);
    return 1;
  }
  await updateConfigFile(file, (data) => {
    const servers = { ...(data.mcpServers as JsonObject) };
    delete servers[name];
    return { ...data, mcpServers: servers };
  });
  io.stdout(`Removed MCP server "${name}" from ${file}.\n`);
  return 0;
}

async function test(args: string[], io: CliIo): Promise<number> {
  if (args.length !== 1 || args[0]?.startsWith('-')) fail('expected: agentcli mcp test <name>');
  const name = args[0] as string;
  const { config } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: (l) => io.stderr(`${l}\n`) });
  const server = config.mcpServers[name];
  if (!server) {
    const known = Object.keys(config.mcpServers);
    io.stderr(`agentcli mcp: no MCP server "${name}" is configured${known.length ? ` (configured: ${known.join(', ')})` : ''}; add one with agentcli mcp add\n`);
    return 1;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the client is loaded only for this command
  const { ServerConnection } = require('../mcp/server-connection') as typeof import('../mcp/server-connection');
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const conn = new ServerConnection(name, { ...server, enabled: true }, { cwd: io.cwd, env: io.env, shellEnv: config.shell.env, changed: () => settle() });
  conn.start();
  await settled;
  await conn.stop();
  if (conn.state !== 'ready') {
    io.stderr(`agentcli mcp: server "${name}" failed: ${conn.error ?? conn.state}\n`);
    if (conn.stderrTail) io.stderr(`last stderr lines:\n${conn.stderrTail}\n`);
    return 1;
  }
  io.stdout(`Server "${name}" is ready (${conn.transportKind ?? 'stdio'}) with ${conn.offered().length} tool(s):\n`);
  for (const tool of conn.tools) {
    io.stdout(`  ${tool.exposed}${tool.description ? `  ${tool.description.split('\n')[0]}` : ''}\n`);
    if (tool.problem) io.stdout(`    not offered: ${tool.problem}\n`);
  }
  return 0;
}

/** Run `mcp ...`; exit 0 ok, 2 bad usage or an invalid config, 1 a server that fails its test or is not found. */
export async function runMcpCommand(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  // Only right after the command: a server's own arguments may hold --help (mcp add x -- srv --help).
  const isHelp = (a: string | undefined) => a === '--help' || a === '-h' || a === 'help';
  if (isHelp(command) || (command !== undefined && isHelp(rest[0]))) {
    io.stdout(MCP_USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'list':
        if (rest.length > 0) fail('list takes no arguments');
        return list(io);
      case 'add':
        return await add(rest, io);
      case 'remove':
        return await remove(rest, io);
      case 'test':
        return await test(rest, io);
      case undefined:
        fail('missing command');
      // falls through (fail throws)
      default:
        fail(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`agentcli mcp: ${error.message}\n\n${MCP_USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`agentcli mcp: ${error.message}\n`);
      return 2;
    }
    io.stderr(`agentcli mcp: failed: ${(error as Error).message}\n`);
    return 1;
  }
}
