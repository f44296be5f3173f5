import { existsSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { PermissionMode } from '../protocol/records';
import { InvalidArgumentError, RuntimeStartError } from './errors';

/** Everything needed to spawn the runtime: `<node> [...nodeArgs] <cliPath> --mode rpc [...args]`. */
export interface LaunchPlan {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  cliPath: string;
}

export interface LaunchOptions {
  cwd: string;
  cliPath?: string;
  nodePath?: string;
  nodeArgs?: string[];
  env?: Record<string, string | undefined>;
  args?: string[];
  debug?: boolean;
  model?: string;
  systemPrompt?: string;
  /** Appended in order, separated by blank lines; each part is inline text or a file path. */
  appendSystemPrompt?: string[];
  skills?: string[];
  permissionMode?: PermissionMode;
  maxIterations?: number;
}

/** Linux refuses a single argv string over 128 KiB; stay well below it. */
const MAX_PROMPT_ARG_BYTES = 100_000;

/**
 * The CLI to run: the option, else `SERVICE_CLI_PATH` (from `env`, then the process), else the bundled
 * `agentcli.js` next to the SDK bundle (dist/) or, when running from source, `<repo>/dist/agentcli.js`.
 */
export function resolveCliPath(option: string | undefined, env: Record<string, string | undefined> | undefined): string {
  // A key present in `env` wins, even when undefined (which removes the variable for the runtime too).
  const fromEnv = env && 'SERVICE_CLI_PATH' in env ? env.SERVICE_CLI_PATH : process.env.SERVICE_CLI_PATH;
  const explicit = option ?? fromEnv;
  if (explicit !== undefined && explicit !== '') {
    const abs = path.resolve(explicit);
    if (!existsSync(abs)) {
      throw new RuntimeStartError(`the runtime CLI "${abs}" does not exist (check the cliPath option or SERVICE_CLI_PATH)`);
    }
    return abs;
  }
  const candidates = [path.join(__dirname, 'agentcli.js'), path.resolve(__dirname, '..', '..', 'dist', 'agentcli.js')];
  const found = candidates.find((c) => existsSync(c));
  if (!found) {
    throw new RuntimeStartError(
      `the bundled runtime CLI was not found (looked at ${candidates.join(', ')}); run \`npm run build\`, or set the cliPath option or SERVICE_CLI_PATH`,
    );
  }
  return found;
}

/** A value reads as a path when it is one line, has no spaces around words, and starts like a path or ends in a text extension. */
export function looksLikePath(value: string): boolean {
  if (value.length === 0 || value.length > 4096 || /[\r\n]/.test(value)) return false;
  if (/^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(value)) return !/\s{2,}/.test(value);
  return /^[\w.\-\\/]+\.(md|txt|prompt|markdown)$/i.test(value);
}

/**
 * A prompt option is inline text unless it looks like a path; then it must name a readable file (relative to
 * `cwd`), whose content is used. A path-like value naming no file is an error rather than silently sent as text.
 */
export function resolvePromptText(value: string, cwd: string, option: string): string {
  if (!looksLikePath(value)) return value;
  const expanded = value.startsWith('~') ? path.join(process.env.HOME ?? '', value.slice(1)) : value;
  const file = path.resolve(cwd, expanded);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new InvalidArgumentError(
      `${option} "${value}" looks like a file path but ${file} is not a file; give an existing file or inline text`,
    );
  }
  return readFileSync(file, 'utf8');
}

function checkPromptSize(text: string, option: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PROMPT_ARG_BYTES) {
    throw new InvalidArgumentError(`${option} is ${bytes} bytes; the limit is ${MAX_PROMPT_ARG_BYTES} bytes`);
  }
}

function checkOptions(o: LaunchOptions): void {
  if (typeof o.cwd !== 'string' || o.cwd === '') throw new InvalidArgumentError('cwd is required: the directory the agent works in');
  if (!existsSync(o.cwd) || !statSync(o.cwd).isDirectory()) {
    throw new InvalidArgumentError(`cwd "${o.cwd}" is not an existing directory`);
  }
  if (o.maxIterations !== undefined && (!Number.isInteger(o.maxIterations) || o.maxIterations <= 0)) {
    throw new InvalidArgumentError(`maxIterations must be a positive integer, got ${String(o.maxIterations)}`);
  }
  if (o.permissionMode !== undefined && !PermissionMode.safeParse(o.permissionMode).success) {
    throw new InvalidArgumentError(
      `permissionMode must be one of ${PermissionMode.options.join(', ')}, got "${String(o.permissionMode)}"`,
    );
  }
  for (const skill of o.skills ?? []) {
    if (typeof skill !== 'string' || skill.trim() === '') throw new InvalidArgumentError('skills must be non-empty names');
  }
  if (o.model !== undefined && o.model.trim() === '') throw new InvalidArgumentError('model must not be empty');
}

/** Builds the command line and environment; validates options and reads prompt files. */
export function planLaunch(o: LaunchOptions): LaunchPlan {
  checkOptions(o);
  const cwd = path.resolve(o.cwd);
  const cliPath = resolveCliPath(o.cliPath, o.env);
  const args = [...(o.nodeArgs ?? []), cliPath, '--mode', 'rpc'];
  if (o.model !== undefined) args.push('--model', o.model);
  if (o.systemPrompt !== undefined) {
    const text = resolvePromptText(o.systemPrompt, cwd, 'systemPrompt');
    checkPromptSize(text, 'systemPrompt');
    args.push('--sys-prompt', text);
  }
  const appended = (o.appendSystemPrompt ?? [])
    .map((part) => resolvePromptText(part, cwd, 'appendSystemPrompt').trim())
    .filter((part) => part !== '')
    .join('\n\n');
  if (appended !== '') {
    checkPromptSize(appended, 'appendSystemPrompt');
    args.push('--append-system-prompt', appended);
  }
  for (const skill of o.skills ?? []) args.push('--skill', skill);
  if (o.maxIterations !== undefined) args.push('--max-iterations', String(o.maxIterations));
  if (o.permissionMode !== undefined) args.push('--permission-mode', o.permissionMode);
  args.push(...(o.args ?? []));

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  if (o.debug) env.SERVICE_DEBUG = 'true';
  return { command: o.nodePath ?? process.execPath, args, cwd, env, cliPath };
}
