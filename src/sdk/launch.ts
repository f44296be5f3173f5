import { existsSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { looksLikePromptPath, promptFileNotFoundMessage } from '../protocol/prompt-source';
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
  /** Replaces the default prompt: inline text or a file path (the rule of protocol/prompt-source). */
  systemPrompt?: string;
  /** Appended in order, separated by blank lines; each part is inline text or a file path (same rule). */
  appendSystemPrompt?: string[];
  skills?: string[];
  permissionMode?: PermissionMode;
  maxIterations?: number;
  /** Forwarded as `--loop-type`. */
  loopType?: string;
  /** false: the runtime ignores `<cwd>/.agentcli/config.json` (`--no-project-config`). */
  projectConfig?: boolean;
  /** Given to the runtime as `SERVICE_API_KEY` in its environment, never on the command line. */
  apiKey?: string;
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

/**
 * The command-line arguments for one system-prompt value, by the rule the CLI uses too (protocol/prompt-source):
 * a path-like value must name an existing file and goes as its absolute path with `fileFlag`; anything else is inline
 * text and goes with `textFlag`, where the runtime, applying the same rule, also reads it as text.
 */
export function promptArgs(value: string, cwd: string, option: string, textFlag: string, fileFlag: string): string[] {
  if (typeof value !== 'string') throw new InvalidArgumentError(`${option} must be a string (inline text or a file path)`);
  if (!looksLikePromptPath(value)) {
    checkPromptSize(value, option);
    return [textFlag, value];
  }
  const home = process.env.HOME ?? os.homedir();
  const expanded = value === '~' || value.startsWith('~/') || value.startsWith('~\\') ? path.join(home, value.slice(1)) : value;
  const file = path.resolve(cwd, expanded);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new InvalidArgumentError(promptFileNotFoundMessage(option, value, file));
  }
  return [fileFlag, file];
}

function checkPromptSize(text: string, option: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_PROMPT_ARG_BYTES) {
    throw new InvalidArgumentError(
      `${option} is ${bytes} bytes of inline text; the limit is ${MAX_PROMPT_ARG_BYTES} bytes: write it to a .md file and pass the file's path`,
    );
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

/** Builds the command line and environment; validates options and checks that prompt files exist. */
export function planLaunch(o: LaunchOptions): LaunchPlan {
  checkOptions(o);
  const cwd = path.resolve(o.cwd);
  const cliPath = resolveCliPath(o.cliPath, o.env);
  const args = [...(o.nodeArgs ?? []), cliPath, '--mode', 'rpc'];
  if (o.model !== undefined) args.push('--model', o.model);
  if (o.systemPrompt !== undefined) args.push(...promptArgs(o.systemPrompt, cwd, 'systemPrompt', '--sys-prompt', '--sys-prompt-file'));
  for (const part of o.appendSystemPrompt ?? []) {
    if (typeof part === 'string' && part.trim() === '') continue;
    args.push(...promptArgs(part, cwd, 'appendSystemPrompt', '--append-system-prompt', '--append-system-prompt-file'));
  }
  for (const skill of o.skills ?? []) args.push('--skill', skill);
  if (o.maxIterations !== undefined) args.push('--max-iterations', String(o.maxIterations));
  if (o.permissionMode !== undefined) args.push('--permission-mode', o.permissionMode);
  if (o.loopType !== undefined) args.push('--loop-type', o.loopType);
  if (o.projectConfig === false) args.push('--no-project-config');
  args.push(...(o.args ?? []));

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  if (o.debug) env.SERVICE_DEBUG = 'true';
  if (o.apiKey !== undefined) env.SERVICE_API_KEY = o.apiKey;
  return { command: o.nodePath ?? process.execPath, args, cwd, env, cliPath };
}
