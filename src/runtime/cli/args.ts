import { parseArgs } from 'node:util';
import { classifyPromptValue, type PromptSource } from '../../protocol/prompt-source';
import { PermissionMode } from '../../protocol/records';
import { DEFAULT_LOOP_TYPE, LOOP_TYPES, PROVIDER_IDS, type LoopType, type ProviderId } from '../config/schema';
import { UsageError } from './usage-error';

export { UsageError };

export interface CliOptions {
  prompt?: string;
  model?: string;
  provider?: ProviderId;
  json: boolean;
  bare: boolean;
  /** false with --no-project-config: the folder's .agentcli/config.json is not read. */
  projectConfig: boolean;
  restricted: boolean;
  yolo: boolean;
  patch: boolean;
  mode: 'print' | 'rpc';
  /** `--acp`: speak the Agent Client Protocol on stdio (an editor such as Zed or a JetBrains IDE starts it). */
  acp: boolean;
  permissionMode?: PermissionMode;
  /** `--sys-prompt` (text or file by the shared rule) or `--sys-prompt-file` (always a file); not yet read. */
  sysPrompt?: CliPromptSource;
  /** `--append-system-prompt` and `--append-system-prompt-file`, in command-line order; not yet read. */
  appendSystemPrompt: CliPromptSource[];
  skills: string[];
  maxIterations?: number;
  /** `--loop-type`: the run loop strategy (overrides config `loopType`). */
  loopType?: LoopType;
  /** `--resume <id>`: continue that saved session. */
  resume?: string;
  /** `--continue`: continue the newest saved session of this folder. */
  continue: boolean;
  help: boolean;
  version: boolean;
}

/** A system-prompt value and the flag that gave it (named in errors). */
export type CliPromptSource = PromptSource & { flag: string };


/**
 * Words that may follow a `-p` prompt to say where the run happens. Only `local` (this machine, which is where every run
 * happens) exists; spec 001 §4.6's CI example ends with it: `agentcli --bare -p <prompt> --restricted --json local`.
 */
export const RUN_TARGETS = ['local'] as const;

export const USAGE = `Usage: agentcli                      in a terminal: an interactive session (/model, /help, /exit)
       agentcli [options] [prompt]
       agentcli [options] -p <prompt> [local]   local: the run happens on this machine (the only target; the default)
       agentcli --resume <id> | --continue   continue a saved session (--continue: the newest in this folder)
       agentcli auto "<goal>" [--max-iterations N] [--worktree]   auto-mode: iterate until the goal is met
       agentcli sessions <list [--all] | show <id> | rm <id>>   saved sessions (~/.agentcli/sessions)
       agentcli skills <list | recommend | learn [--user] | generate <name> "<description>" [--user]>   skills and learning
       agentcli config <set|get|list|path> ...
       agentcli mcp <list | add <name> <command> [args...] | remove <name> | test <name>>   MCP servers (mcpServers)
       agentcli decide --kind <noul|choice|score> [--option <text>]... "<question>"   typed decision (serviceai)
       agentcli ggufserver command [--vram GB] [--gpus N] [--ram GB] [--model path]  gguf server start command
       agentcli localrunner <status|unload [model]>
       agentcli --mode rpc          JSON-RPC server on stdio (for the SDK and the editor)
       agentcli --acp               Agent Client Protocol on stdio (for ACP editors: Zed, JetBrains IDEs)

Options:
  -p, --prompt <text>              run one prompt non-interactively (also: a positional prompt, or stdin without -p).
                                   Input piped or redirected into -p (up to 1 MB) follows the prompt as a stdin block:
                                   cat log.txt | agentcli -p "explain"
  --model <id>                     model for this run (<provider>/<model> switches both)
  --provider <id>                  ${PROVIDER_IDS.join(' | ')}
  --json                           print one JSON object {type, content, status, denied, ...} at the end instead of
                                   streaming (needs a prompt)
  --bare                           no stored sign-in: ignore ~/.agentcli/config.json; provider and keys from the environment
  --no-project-config              ignore <cwd>/.agentcli/config.json (a folder you do not trust: its base URLs and rules)
  --restricted                     no writes, no shell
  --yolo                           approve everything (deny rules and protected paths still apply), for CI
  --patch                          collect the run's file edits as one change batch, print it as a unified diff, then
                                   apply it (file tools only; commands run on the disk; needs a prompt)
  --loop-type <type>               loop strategy: ${LOOP_TYPES.join(', ')} (default: config loopType, ${DEFAULT_LOOP_TYPE})
  --sys-prompt <text|file>         replace the system prompt. A value is a file when it is one line without spaces
                                   and has a / or \\ or ends in .md, .markdown, .txt or .prompt (it must exist);
                                   anything else is inline text
  --sys-prompt-file <path>         replace the system prompt with a file's content (any path)
  --append-system-prompt <text|file>  append to the system prompt (repeatable; same rule as --sys-prompt)
  --append-system-prompt-file <path>  append a file's content (repeatable; any path)
  --skill <name>                   enable a skill from .agentcli/skills or ~/.agentcli/skills (repeatable)
  --max-iterations <n>             bound the loop (default: config maxIterations, 50)
  --permission-mode <mode>         interactive | restricted | unrestricted
  --mode <print|rpc>               rpc: serve JSON-RPC on stdio
  --acp                            serve the Agent Client Protocol on stdio (editors start it; see README "ACP")
  --resume <id>                    continue saved session <id> (see agentcli sessions list), with -p or interactively
  --continue                       continue the newest saved session of this folder
  -v, --version                    print the version
  -h, --help                       print this help

Environment: SERVICE_PROVIDER, SERVICE_MODEL, SERVICE_API_KEY, SERVICE_AI_API_KEY, SERVICE_BASE_URL, SERVICE_DEBUG,
VENDORAPI_API_KEY, LOCALRUNNER_HOST, CLOUDHUB_* (see README).`;

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${name} must be a positive integer (got "${value}")`);
  return n;
}

type ArgToken = { kind: string; name?: string; value?: string | undefined };

/** The system-prompt options in command-line order, classified (files are read later, at startup). */
function promptSources(tokens: ArgToken[]): { sysPrompt?: CliPromptSource; append: CliPromptSource[] } {
  let sysPrompt: CliPromptSource | undefined;
  const append: CliPromptSource[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || t.value === undefined) continue;
    const flag = `--${t.name}`;
    const file = t.name.endsWith('-file');
    if (!['sys-prompt', 'sys-prompt-file', 'append-system-prompt', 'append-system-prompt-file'].includes(t.name)) continue;
    if (t.value.trim() === '') throw new UsageError(`${flag} needs ${file ? 'a file path' : 'text or a file path'}`);
    const source: CliPromptSource = { ...(file ? { kind: 'file' as const, value: t.value } : classifyPromptValue(t.value)), flag };
    if (t.name.startsWith('append-')) append.push(source);
    else if (sysPrompt) throw new UsageError('give the system prompt once: --sys-prompt or --sys-prompt-file');
    else sysPrompt = source;
  }
  return { ...(sysPrompt ? { sysPrompt } : {}), append };
}

export function parseCliArgs(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        prompt: { type: 'string', short: 'p' },
        model: { type: 'string' },
        provider: { type: 'string' },
        json: { type: 'boolean', default: false },
        bare: { type: 'boolean', default: false },
        'no-project-config': { type: 'boolean', default: false },
        restricted: { type: 'boolean', default: false },
        yolo: { type: 'boolean', default: false },
        patch: { type: 'boolean', default: false },
        'loop-type': { type: 'string' },
        'sys-prompt': { type: 'string' },
        'sys-prompt-file': { type: 'string' },
        'append-system-prompt': { type: 'string', multiple: true, default: [] },
        'append-system-prompt-file': { type: 'string', multiple: true, default: [] },
        skill: { type: 'string', multiple: true, default: [] },
        'max-iterations': { type: 'string' },
        'permission-mode': { type: 'string' },
        mode: { type: 'string' },
        acp: { type: 'boolean', default: false },
        resume: { type: 'string' },
        continue: { type: 'boolean', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  // After -p, a lone run target is not a second prompt (the spec's CI line: `agentcli --bare -p <prompt> --json local`).
  const positionals =
    v.prompt !== undefined && parsed.positionals.length === 1 && (RUN_TARGETS as readonly string[]).includes(parsed.positionals[0]!)
      ? []
      : parsed.positionals;
  if (v.prompt !== undefined && positionals.length > 0) {
    throw new UsageError(
      `give the prompt once: with -p/--prompt, or as a positional argument (extra argument: "${positionals[0]}"); ` +
        `after -p only the run target ${RUN_TARGETS.map((t) => `"${t}"`).join(', ')} may follow`,
    );
  }
  const prompt = v.prompt ?? (positionals.length ? positionals.join(' ') : undefined);
  if (v.provider !== undefined && !(PROVIDER_IDS as readonly string[]).includes(v.provider)) {
    throw new UsageError(`--provider must be one of ${PROVIDER_IDS.join(', ')} (got "${v.provider}")`);
  }
  const loopType = v['loop-type'];
  if (loopType !== undefined && !(LOOP_TYPES as readonly string[]).includes(loopType)) {
    throw new UsageError(`--loop-type must be one of ${LOOP_TYPES.join(', ')} (got "${loopType}")`);
  }
  const mode = v.mode ?? 'print';
  if (mode !== 'print' && mode !== 'rpc') throw new UsageError(`--mode must be "rpc" or "print" (got "${mode}")`);
  const pm = v['permission-mode'];
  if (pm !== undefined && !PermissionMode.safeParse(pm).success) {
    throw new UsageError(`--permission-mode must be one of ${PermissionMode.options.join(', ')} (got "${pm}")`);
  }
  if (v.resume !== undefined && v.continue) throw new UsageError('--resume <id> and --continue contradict each other: pick one');
  if (v.resume !== undefined && v.resume.trim() === '') throw new UsageError('--resume needs a session id: see agentcli sessions list');
  if (v.acp) {
    const clash = prompt !== undefined ? 'a prompt' : v.mode !== undefined ? '--mode' : v.json ? '--json' : v.patch ? '--patch' : v.resume !== undefined ? '--resume' : v.continue ? '--continue' : undefined;
    if (clash) throw new UsageError(`--acp cannot be combined with ${clash}: the editor sends the prompts over stdio (and loads saved sessions with session/load)`);
  }
  if (v.restricted && v.yolo) throw new UsageError('--restricted and --yolo contradict each other: pick one');
  const prompts = promptSources(parsed.tokens ?? []);
  return {
    ...(prompt !== undefined ? { prompt } : {}),
    ...(v.model !== undefined ? { model: v.model } : {}),
    ...(v.provider !== undefined ? { provider: v.provider as ProviderId } : {}),
    json: v.json,
    bare: v.bare,
    projectConfig: !v['no-project-config'],
    restricted: v.restricted,
    yolo: v.yolo,
    patch: v.patch,
    mode,
    acp: v.acp,
    ...(pm !== undefined ? { permissionMode: pm as PermissionMode } : {}),
    ...(prompts.sysPrompt ? { sysPrompt: prompts.sysPrompt } : {}),
    appendSystemPrompt: prompts.append,
    skills: v.skill,
    ...(v['max-iterations'] !== undefined ? { maxIterations: positiveInt('--max-iterations', v['max-iterations']) } : {}),
    ...(loopType !== undefined ? { loopType: loopType as LoopType } : {}),
    ...(v.resume !== undefined ? { resume: v.resume.trim() } : {}),
    continue: v.continue,
    help: v.help,
    version: v.version,
  };
}
