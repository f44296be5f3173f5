/**
 * Maps the user's explicitly set `agentcli.*` settings (and secrets) to the config object of `configure({ config })`.
 * Only values the user set are sent, so an unset setting never overrides the config file. Invalid values are left
 * out and reported with the setting's full name and what it must be. Pure: no `vscode` import.
 */
import { mcpServersFromSetting, type McpSettingInput } from '../mcp/server-settings';
import { KEEP_ALIVE_PATTERN, PROVIDER_SETTINGS, SECRET_SETTINGS, type SettingSpec } from './table';
import type { SettingProblem } from './setting-problem';

export type { SettingProblem };

export interface ConfigFromSettings {
  config: Record<string, unknown>;
  problems: SettingProblem[];
}

/** Returns the value the user set for a dotted key (`localrunner.numCtx`), or undefined when not set. */
export type SettingReader = (key: string) => unknown;

export function settingId(key: string): string {
  return `agentcli.${key}`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
}

function range(spec: { minimum?: number; maximum?: number }): string {
  if (spec.minimum !== undefined && spec.maximum !== undefined) return ` from ${spec.minimum} to ${spec.maximum}`;
  if (spec.minimum !== undefined) return ` of ${spec.minimum} or more`;
  if (spec.maximum !== undefined) return ` of ${spec.maximum} or less`;
  return '';
}

/** Returns an error phrase (`must be ...`) or undefined when the value fits the spec. */
export function checkSetting(spec: SettingSpec, value: unknown): string | undefined {
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? undefined : 'must be an object';
    case 'integer':
    case 'number': {
      const isInt = spec.type === 'integer';
      const want = `must be ${isInt ? 'an integer' : 'a number'}${range(spec)}`;
      if (typeof value !== 'number' || !Number.isFinite(value) || (isInt && !Number.isInteger(value))) return want;
      if (spec.minimum !== undefined && value < spec.minimum) return want;
      if (spec.maximum !== undefined && value > spec.maximum) return want;
      return undefined;
    }
    case 'string': {
      if (typeof value !== 'string') return 'must be a string';
      if (spec.enum && !spec.enum.includes(value)) return `must be one of ${spec.enum.map((v) => `"${v}"`).join(', ')}`;
      if (spec.format === 'url' && !isHttpUrl(value)) return 'must be an http:// or https:// URL, e.g. "http://localhost:8080"';
      if (spec.format === 'keepAlive' && !KEEP_ALIVE_PATTERN.test(value)) {
        return 'must be "0", "-1" or a duration such as "5m", "10m", "1h"';
      }
      return undefined;
    }
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function setDotted(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (typeof next === 'object' && next !== null) node = next as Record<string, unknown>;
    else node = node[part] = {};
  }
  node[parts[parts.length - 1]!] = value;
}

/**
 * Builds the configure() payload. Empty strings count as "not set" (VS Code's settings editor leaves them behind
 * when a text box is cleared). Secrets are added as given; an empty or missing secret is left out.
 */
export function configFromSettings(
  read: SettingReader,
  secrets: Readonly<Record<string, string | undefined>> = {},
  /** `agentcli.mcpServers` from the scopes that may set it, with its secrets; without it, `read` gives the value. */
  mcp?: McpSettingInput,
): ConfigFromSettings {
  const config: Record<string, unknown> = {};
  const problems: SettingProblem[] = [];
  for (const spec of PROVIDER_SETTINGS) {
    const value = spec.key === 'mcpServers' && mcp ? mcp.value : read(spec.key);
    if (value === undefined || value === null || value === '') continue;
    if (spec.key === 'mcpServers') {
      const mapped = mcpServersFromSetting(mcp ?? { value, fromWorkspace: false, secrets: {} });
      problems.push(...mapped.problems);
      if (Object.keys(mapped.servers).length > 0) config.mcpServers = mapped.servers;
      continue;
    }
    const problem = checkSetting(spec, value);
    if (problem) {
      problems.push({ setting: settingId(spec.key), message: `${settingId(spec.key)} ${problem} (it is ${describe(value)})` });
      continue;
    }
    setDotted(config, spec.key, value);
  }
  for (const secret of SECRET_SETTINGS) {
    const value = secrets[secret.key];
    if (value) setDotted(config, secret.key, value);
  }
  return { config, problems };
}

/** Which settings changed between two payloads' keys, for a short "applied" log line (values never logged). */
export function changedKeys(before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out: string[] = [];
  for (const k of keys) {
    const a = before[k];
    const b = after[k];
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlain(a) && isPlain(b)) out.push(...changedKeys(a, b, path));
    else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(path);
  }
  return out.sort();
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
