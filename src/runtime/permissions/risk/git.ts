/** Git commands that throw away work or history, and git settings that make git run a command later. */
import { hasFlag, operands, type Arg, type Invocation } from './args';

/** Global options before the subcommand that take a value (`git -C dir status`). */
const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** Config keys whose value git runs as a command (or that point git at scripts to run). */
const RUNS_COMMAND_KEY = /^(?:core\.(?:hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|sequence\.editor|diff\.external|gpg\.(?:\w+\.)?program|uploadpack\.packobjectshook|credential\.helper|filter\..+\.(?:clean|smudge|process)|merge\..+\.driver|diff\..+\.(?:textconv|command)|protocol\.ext\.allow|include\.path|includeif\..+\.path|pager\..+|alias\..+)$/i;

function configRunsCommand(key: string, value: string | undefined): boolean {
  const k = key.toLowerCase();
  if (k.startsWith('alias.')) return (value ?? '').trimStart().startsWith('!');
  if (k === 'credential.helper') return (value ?? '').trimStart().startsWith('!') || (value ?? '').includes('/');
  return RUNS_COMMAND_KEY.test(k);
}

/** Everything in the worktree (`.`, `*`, `:/`, `:(top)`). */
function isEverything(arg: Arg): boolean {
  return ['.', './', '*', ':/', ':(top)', ':/*'].includes(arg.value);
}

function split(args: readonly Arg[]): { globals: Arg[]; sub?: string; rest: Arg[] } {
  const globals: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (GLOBAL_WITH_VALUE.has(a.value)) {
      globals.push(a, ...(args[i + 1] ? [args[i + 1]!] : []));
      i++;
    } else if (a.value.startsWith('-')) globals.push(a);
    else return { globals, sub: a.value, rest: args.slice(i + 1) };
  }
  return { globals, rest: [] };
}

function pushRisk(rest: readonly Arg[]): string | undefined {
  if (rest.some((a) => /^--force(?:-with-lease|-if-includes)?(?:=|$)/.test(a.value)) || hasFlag(rest, 'f')) return 'force-pushes over remote history';
  if (rest.some((a) => a.value === '--mirror' || a.value === '--prune')) return 'overwrites or prunes remote branches (git push --mirror/--prune)';
  if (rest.some((a) => a.value === '--delete') || hasFlag(rest, 'd')) return 'deletes remote branches (git push --delete)';
  const refspecs = operands(rest).slice(1);
  if (refspecs.some((a) => a.value.startsWith('+'))) return 'force-pushes a +refspec over remote history';
  if (refspecs.some((a) => a.value.startsWith(':') && a.value.length > 1)) return 'deletes a remote branch (git push :branch)';
  return undefined;
}

function subcommandRisk(sub: string, rest: readonly Arg[]): string | undefined {
  const values = rest.map((a) => a.value);
  switch (sub) {
    case 'reset':
      return values.includes('--hard') || values.includes('--merge') || values.includes('--keep') ? 'throws away uncommitted changes (git reset --hard)' : undefined;
    case 'clean':
      return hasFlag(rest, 'f', ['--force']) ? 'deletes untracked files (git clean -f)' : undefined;
    case 'push':
      return pushRisk(rest);
    case 'checkout': {
      if (hasFlag(rest, 'f', ['--force'])) return 'throws away local changes (git checkout -f)';
      const dash = values.indexOf('--');
      const paths = dash === -1 ? rest.filter((a) => !a.value.startsWith('-')) : rest.slice(dash + 1);
      return paths.some(isEverything) ? 'throws away every uncommitted change (git checkout -- .)' : undefined;
    }
    case 'restore': {
      const stagedOnly = hasFlag(rest, 'S', ['--staged']) && !hasFlag(rest, 'W', ['--worktree']);
      return !stagedOnly && operands(rest).some(isEverything) ? 'throws away every uncommitted change (git restore .)' : undefined;
    }
    case 'switch':
      return values.includes('--discard-changes') || hasFlag(rest, 'f', ['--force']) ? 'throws away local changes (git switch -f)' : undefined;
    case 'branch':
      return hasFlag(rest, 'D') || (hasFlag(rest, 'd', ['--delete']) && hasFlag(rest, 'f', ['--force']))
        ? 'deletes a branch even if it is not merged (git branch -D)'
        : undefined;
    case 'filter-branch':
    case 'filter-repo':
      return `rewrites the whole history (git ${sub})`;
    case 'reflog':
      return values[0] === 'expire' || values[0] === 'delete' ? `drops reflog entries, which makes lost commits unrecoverable (git reflog ${values[0]})` : undefined;
    case 'gc':
      return values.some((v) => /^--prune(?:=(?:now|all))?$/.test(v)) ? 'deletes unreachable commits now (git gc --prune=now)' : undefined;
    case 'prune':
      return 'deletes unreachable objects (git prune)';
    case 'stash':
      return values[0] === 'clear' ? 'deletes every stash (git stash clear)' : undefined;
    case 'update-ref':
      return hasFlag(rest, 'd') || values.includes('--stdin') ? 'deletes or rewrites refs directly (git update-ref -d)' : undefined;
    case 'rm':
      return hasFlag(rest, 'r') && !values.includes('--cached') && operands(rest).some(isEverything) ? 'deletes every tracked file (git rm -r .)' : undefined;
    case 'worktree':
      return values[0] === 'remove' && hasFlag(rest, 'f', ['--force']) ? 'deletes a worktree with its changes (git worktree remove --force)' : undefined;
    case 'config':
      return configRisk(rest);
    default:
      return undefined;
  }
}

function configRisk(rest: readonly Arg[]): string | undefined {
  const ops = operands(rest.filter((a, i) => !['--file', '-f', '--blob', '--type'].includes(rest[i - 1]?.value ?? '')));
  const [key, value] = ops;
  if (key && value !== undefined && configRunsCommand(key.value, value.value)) return `makes git run a command later (git config ${key.value})`;
  return undefined;
}

export function gitRisk(cmd: Invocation): string | undefined {
  if (cmd.name !== 'git') return undefined;
  const { globals, sub, rest } = split(cmd.args);
  for (let i = 0; i < globals.length; i++) {
    if (globals[i]!.value !== '-c' && globals[i]!.value !== '--config-env') continue;
    const setting = globals[i + 1]?.value ?? '';
    const eq = setting.indexOf('=');
    if (configRunsCommand(eq === -1 ? setting : setting.slice(0, eq), eq === -1 ? undefined : setting.slice(eq + 1))) {
      return `runs a command through a git setting (git -c ${setting.slice(0, eq === -1 ? undefined : eq)})`;
    }
  }
  return sub === undefined ? undefined : subcommandRisk(sub, rest);
}
