/**
 * The `agentcli.mcpServers` setting → the config's `mcpServers` (same shape: `{ "<name>": { "command", "args"?,
 * "env"?, "cwd"? } | { "url", "headers"? } }`, each with `timeoutMs`? and `enabled`?). Each server is checked the way
 * the runtime checks it, so one bad server is left out (and reported naming its key) instead of failing the whole
 * configure call. `${secret:NAME}` in an `env` or `headers` value is replaced by the secret stored with "agentcli: Set
 * MCP Secret…" — only in user settings: a workspace could otherwise send the secret to a server of its choosing.
 * Pure: no `vscode` import.
 */
import type { SettingProblem } from '../settings/setting-problem';

export const MCP_SETTING = 'agentcli.mcpServers';
/** SecretStorage key of `${secret:NAME}`. */
export const mcpSecretKey = (name: string) => `agentcli.mcpSecret.${name}`;
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const SECRET_NAME_RULE = 'letters, digits, "_", "-" and ".", at most 64 characters (e.g. "GITHUB_TOKEN")';
const SECRET_REF = /\$\{secret:([^}]*)\}/g;
/** As the runtime's server names (src/runtime/mcp/tool-names.ts). */
const SERVER_NAME_PATTERN = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_SERVER_NAME_LENGTH = 32;
const SECRET_FIELDS = ['env', 'headers'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The secret names referenced in the setting's `env` and `headers` values (to read from SecretStorage first). */
export function secretRefs(value: unknown): string[] {
  const names = new Set<string>();
  if (!isObject(value)) return [];
  for (const server of Object.values(value)) {
    if (!isObject(server)) continue;
    for (const field of SECRET_FIELDS) {
      const map = server[field];
      if (!isObject(map)) continue;
      for (const v of Object.values(map)) if (typeof v === 'string') for (const m of v.matchAll(SECRET_REF)) names.add(m[1] ?? '');
    }
  }
  return [...names].filter((n) => SECRET_NAME_PATTERN.test(n));
}

export interface McpSettingInput {
  value: unknown;
  /** The value comes from the workspace's (or folder's) settings, not the user's. */
  fromWorkspace: boolean;
  /** Stored secrets by name (`secretRefs`), undefined when not stored. */
  secrets: Readonly<Record<string, string | undefined>>;
}

/** Why a server entry cannot be used, as `must …` phrases keyed by field, or [] when it is fine. */
function serverProblems(s: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const stringMap = (field: string) => {
    const m = s[field];
    if (m !== undefined && (!isObject(m) || Object.values(m).some((v) => typeof v !== 'string'))) out.push([field, 'must be an object of string values']);
  };
  if (s.command === undefined && s.url === undefined) out.push(['', 'needs "command" (a program started as a local server) or "url" (a Streamable HTTP server)']);
  if (s.command !== undefined && s.url !== undefined) out.push(['', 'has both "command" and "url": keep one']);
  if (s.command !== undefined && (typeof s.command !== 'string' || s.command === '')) out.push(['command', 'must name the program that starts the server']);
  if (s.args !== undefined && (!Array.isArray(s.args) || s.args.some((a) => typeof a !== 'string'))) out.push(['args', 'must be an array of strings, e.g. ["-y", "my-server"]']);
  if (s.cwd !== undefined && typeof s.cwd !== 'string') out.push(['cwd', 'must be a string']);
  if (s.url !== undefined && !(typeof s.url === 'string' && /^https?:\/\/[^/]/.test(s.url))) out.push(['url', 'must be an http:// or https:// URL, e.g. "http://127.0.0.1:3000/mcp"']);
  if (s.timeoutMs !== undefined && !(typeof s.timeoutMs === 'number' && Number.isInteger(s.timeoutMs) && s.timeoutMs > 0)) out.push(['timeoutMs', 'must be a positive integer (milliseconds)']);
  if (s.enabled !== undefined && typeof s.enabled !== 'boolean') out.push(['enabled', 'must be true or false']);
  stringMap('env');
  stringMap('headers');
  return out;
}

/** `${secret:NAME}` replaced in env/headers, or the problem (unknown secret, workspace settings). */
function resolveSecrets(name: string, s: Record<string, unknown>, input: McpSettingInput): { server?: Record<string, unknown>; problem?: string } {
  const server = { ...s };
  for (const field of SECRET_FIELDS) {
    const map = s[field];
    if (!isObject(map)) continue;
    const resolved: Record<string, string> = {};
    for (const [key, raw] of Object.entries(map)) {
      const where = `${MCP_SETTING}.${name}.${field}.${key}`;
      let missing: string | undefined;
      const text = String(raw).replace(SECRET_REF, (_m, ref: string) => {
        if (input.fromWorkspace) missing ??= `${where} uses \${secret:${ref}}, which only your user settings may do (a folder must not choose where your secrets go): move the server "${name}" to your user settings`;
        else if (!SECRET_NAME_PATTERN.test(ref)) missing ??= `${where} names the secret "${ref}", which is not a valid secret name: use ${SECRET_NAME_RULE}`;
        else if (!input.secrets[ref]) missing ??= `${where} uses the secret "${ref}", which is not stored: store it with "agentcli: Set MCP Secret…"`;
        return input.secrets[ref] ?? '';
      });
      if (missing) return { problem: missing };
      resolved[key] = text;
    }
    server[field] = resolved;
  }
  return { server };
}

/** The servers to send as `mcpServers` (those without problems) and the problems, each naming its key. */
export function mcpServersFromSetting(input: McpSettingInput): { servers: Record<string, Record<string, unknown>>; problems: SettingProblem[] } {
  const servers: Record<string, Record<string, unknown>> = {};
  const problems: SettingProblem[] = [];
  const problem = (message: string) => problems.push({ setting: MCP_SETTING, message });
  if (input.value === undefined || input.value === null) return { servers, problems };
  if (!isObject(input.value)) {
    problem(`${MCP_SETTING} must be an object mapping server names to { "command": ... } or { "url": ... }`);
    return { servers, problems };
  }
  for (const [name, entry] of Object.entries(input.value)) {
    if (name.length > MAX_SERVER_NAME_LENGTH || !SERVER_NAME_PATTERN.test(name)) {
      problem(`${MCP_SETTING}: "${name}" is not a valid server name: use letters, digits, "-" and single "_" (no "__"), at most ${MAX_SERVER_NAME_LENGTH} characters, e.g. "github" or "my-db"`);
      continue;
    }
    if (!isObject(entry)) {
      problem(`${MCP_SETTING}.${name} must be an object with "command" (a local server) or "url" (a remote one)`);
      continue;
    }
    const found = serverProblems(entry);
    if (found.length > 0) {
      problem(found.map(([field, why]) => `${MCP_SETTING}.${name}${field ? `.${field}` : ''} ${why}`).join('; '));
      continue;
    }
    const { server, problem: secretProblem } = resolveSecrets(name, entry, input);
    if (secretProblem || !server) problem(secretProblem ?? `${MCP_SETTING}.${name} could not be read`);
    else servers[name] = server;
  }
  return { servers, problems };
}
