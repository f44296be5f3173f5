/**
 * `agentcli config set|get|list|path`: read and write `~/.agentcli/config.json` (or the project's
 * `.agentcli/config.json` with `--project`).
 */
import { ConfigError } from '../config/errors';
import { loadConfig } from '../config/load';
import { projectConfigPath, userConfigPath } from '../config/paths';
import { isJsonObject, readConfigFile } from '../config/read-file';
import { isSecretKey, maskSecret } from '../config/secrets';
import { getConfigValue, setConfigValue } from '../config/write';
import type { CliIo } from './io';
import { UsageError } from './usage-error';

export type ConfigCommandIo = CliIo;

export const CONFIG_USAGE = `Usage: agentcli config <command>

  set <key> <value> [--project]   write a value (user file by default; --project writes .agentcli/config.json)
  get <key> [--show-secret]       print the effective value (files merged with the environment)
  list [--show-secret]            print every effective value as key = value
  path                            print where the config files are

Keys are dotted, e.g. provider, model, localrunner.model, localrunner.temperature,
vendorapi.apiKey, permissions.allow. Lists and objects take JSON: '["Bash(npm test:*)"]'.
`;


interface ParsedArgs {
  positional: string[];
  project: boolean;
  showSecret: boolean;
  help: boolean;
}

function parseArgs(args: readonly string[]): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], project: false, showSecret: false, help: false };
  let onlyPositional = false;
  for (const arg of args) {
    if (!onlyPositional && arg === '--') onlyPositional = true;
    else if (!onlyPositional && arg === '--project') parsed.project = true;
    else if (!onlyPositional && arg === '--show-secret') parsed.showSecret = true;
    else if (!onlyPositional && (arg === '--help' || arg === '-h' || (arg === 'help' && parsed.positional.length === 0))) parsed.help = true;
    else if (!onlyPositional && arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else parsed.positional.push(arg);
  }
  return parsed;
}

/** Replace secret values (apiKey, clientSecret) by a masked form, at any depth. */
function maskSecrets(value: unknown, key?: string): unknown {
  if (typeof value === 'string' && key !== undefined && isSecretKey(key)) return maskSecret(value);
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskSecrets(v, k)]));
  return value;
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `key = value` lines for every leaf (lists stay whole, as JSON). */
function flatten(value: unknown, prefix: string, out: string[]): void {
  if (isJsonObject(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix === '' ? key : `${prefix}.${key}`, out);
  } else if (value !== undefined) {
    out.push(`${prefix} = ${formatValue(value)}`);
  }
}

function expectCount(positional: readonly string[], count: number, shape: string): void {
  if (positional.length !== count) throw new UsageError(`expected: config ${shape}`);
}

/**
 * After a set: when this folder's effective value is not the one just written, because the project file (for a user
 * set) or an environment variable overrides it, says which and how to change it here.
 */
function overrideNote(key: string, written: unknown, project: boolean, io: ConfigCommandIo): string | undefined {
  // An ${env:VAR} reference is meant to differ from its expansion.
  if (written === undefined || (typeof written === 'string' && written.includes('$'))) return undefined;
  let loaded;
  try {
    loaded = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: () => undefined });
  } catch {
    return undefined; // another file is invalid: `config get` reports it
  }
  const effective = getConfigValue(loaded.config, key);
  if (JSON.stringify(effective) === JSON.stringify(written)) return undefined;
  const shown = isSecretKey(key.split('.').pop() ?? key) ? 'a different value' : formatValue(effective);
  const variable = loaded.envSources.get(key);
  if (variable) return `note: the environment variable ${variable} overrides ${key} here (effective value: ${shown}); unset it to use the file's value\n`;
  const projectFile = projectConfigPath(io.cwd);
  if (!project && loaded.files.includes(projectFile) && getRawValue(safeRead(projectFile) ?? {}, key) !== undefined) {
    return (
      `note: ${projectFile} also sets ${key} and overrides the user file in this folder (effective value: ${shown}); ` +
      `to change it here: agentcli config set ${key} <value> --project\n`
    );
  }
  return undefined;
}

function safeRead(file: string): Record<string, unknown> | undefined {
  try {
    return readConfigFile(file);
  } catch {
    return undefined;
  }
}

function getRawValue(data: Record<string, unknown>, key: string): unknown {
  let node: unknown = data;
  for (const segment of key.split('.')) node = isJsonObject(node) ? node[segment] : undefined;
  return node;
}

async function run(parsed: ParsedArgs, io: ConfigCommandIo): Promise<number> {
  if (parsed.help) {
    io.stdout(CONFIG_USAGE);
    return 0;
  }
  const [command, ...rest] = parsed.positional;
  const lastLeaf = (key: string): string => key.split('.').pop() ?? key;
  switch (command) {
    case 'set': {
      expectCount(rest, 2, 'set <key> <value> [--project]');
      const [key = '', value = ''] = rest;
      const file = parsed.project ? projectConfigPath(io.cwd) : userConfigPath(io.home);
      await setConfigValue(file, key, value);
      const shown = isSecretKey(lastLeaf(key)) ? maskSecret(value) : value;
      io.stdout(`Set ${key} = ${shown} in ${file}\n`);
      const note = overrideNote(key, getRawValue(safeRead(file) ?? {}, key), parsed.project, io);
      if (note) io.stderr(note);
      return 0;
    }
    case 'get': {
      expectCount(rest, 1, 'get <key> [--show-secret]');
      const [key = ''] = rest;
      const { config } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: (line) => io.stderr(`${line}\n`) });
      const value = getConfigValue(config, key);
      if (value === undefined) {
        io.stderr(`${key} is not set\n`);
        return 1;
      }
      const shown = parsed.showSecret ? value : maskSecrets(value, lastLeaf(key));
      io.stdout(`${formatValue(shown)}\n`);
      return 0;
    }
    case 'list': {
      expectCount(rest, 0, 'list [--show-secret]');
      const { config, files } = loadConfig({ cwd: io.cwd, home: io.home, env: io.env, warn: (line) => io.stderr(`${line}\n`) });
      const lines: string[] = [];
      flatten(parsed.showSecret ? config : maskSecrets(config), '', lines);
      io.stdout(`${lines.join('\n')}\n`);
      io.stderr(files.length > 0 ? `(from ${files.join(', ')} and the environment)\n` : '(defaults and the environment; no config file yet)\n');
      return 0;
    }
    case 'path': {
      expectCount(rest, 0, 'path');
      io.stdout(`user: ${userConfigPath(io.home)}\nproject: ${projectConfigPath(io.cwd)}\n`);
      return 0;
    }
    default:
      throw new UsageError(command === undefined ? 'missing command' : `unknown command "${command}"`);
  }
}

/** Run `config ...`; returns the exit code (0 ok, 2 bad usage or an invalid value/config file, 1 anything else failed or `get` of an unset key). */
export async function runConfigCommand(args: string[], io: ConfigCommandIo): Promise<number> {
  try {
    return await run(parseArgs(args), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`agentcli config: ${error.message}\n\n${CONFIG_USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.stderr(`agentcli config: ${error.message}\n`);
      return 2;
    }
    io.stderr(`agentcli config: failed: ${(error as Error).message}\n`);
    return 1;
  }
}
