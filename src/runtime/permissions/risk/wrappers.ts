/**
 * Commands that run another command: `env`, `command`, `exec`, `nice`, `nohup`, `timeout`, `xargs`, `find -exec`,
 * `busybox`, `watch`, `parallel`, ... What they run is judged like a command of its own.
 */
import type { Arg, Invocation } from './args';

export type Inner =
  /** An argument vector (name first). `list`: run once per item of a list (find, xargs), items marked `placeholder`. */
  | { kind: 'command'; args: Arg[]; list?: boolean }
  /** Text run by a shell (`env -S`, `watch`, `flock -c`, `parallel`). */
  | { kind: 'script'; script: Arg; list?: boolean; placeholders?: string[] };

export interface Unwrapped {
  inner: Inner[];
  /** `NAME=value` assignments the wrapper sets (env). */
  env: string[];
}

/** Options that take a value as the next word, per wrapper; `positional`: operands before the command. */
interface Spec {
  valued?: string[];
  positional?: number;
}

const SIMPLE: Record<string, Spec> = {
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: {},
  setsid: {},
  time: { valued: ['-f', '--format', '-o', '--output'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata'] },
  chrt: { positional: 1 },
  taskset: { positional: 1 },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  chroot: { valued: ['--userspec', '--groups'], positional: 1 },
  unbuffer: {},
  caffeinate: { valued: ['-w', '-t'] },
  torsocks: { valued: ['-u', '-p', '-a', '-P'] },
  proxychains: { valued: ['-f'] },
  proxychains4: { valued: ['-f'] },
  fakeroot: { valued: ['-l', '-s', '-i'] },
  catchsegv: {},
  'dbus-launch': {},
  'xvfb-run': { valued: ['-n', '-s', '-f', '-e', '-p', '-w', '--server-num', '--server-args', '--auth-file', '--error-file'] },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-a', '-E', '-P', '-I', '-b', '-X'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-a', '-n', '-l', '-x', '-L'] },
  valgrind: {},
  firejail: {},
  'systemd-run': { valued: ['-p', '-u', '-E', '--property', '--unit', '--description', '--slice', '--setenv', '--uid', '--gid', '--working-directory'] },
  'systemd-inhibit': { valued: ['--what', '--who', '--why', '--mode'] },
  unshare: {},
  nsenter: { valued: ['-t', '--target', '-S', '-G'] },
  sudo: { valued: ['-u', '-g', '-C', '-D', '-h', '-p', '-R', '-T', '-U', '--user', '--group'] },
  doas: { valued: ['-u', '-C'] },
  pkexec: { valued: ['--user'] },
  runuser: { valued: ['-u', '-g', '-G', '--user', '--group'] },
  rlwrap: {},
  'with-contenv': {},
  'ssh-agent': {},
  dotenv: { valued: ['-e', '-v', '-c'] },
  'env-cmd': { valued: ['-f', '-e', '--file', '--environments'] },
  'cross-env': {},
  watchexec: { valued: ['-w', '-e', '-i', '--watch', '--exts', '--ignore', '-d', '--debounce', '--shell'] },
};

function afterOptions(args: readonly Arg[], spec: Spec): Arg[] {
  let i = 0;
  while (i < args.length) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (spec.valued?.includes(v)) i += 2;
    else if (v.startsWith('-') && v.length > 1) i++;
    else break;
  }
  return args.slice(i + (spec.positional ?? 0));
}

function command(args: readonly Arg[], list = false): Inner[] {
  return args.length > 0 ? [{ kind: 'command', args: [...args], list }] : [];
}

function envWrapper(args: readonly Arg[]): Unwrapped {
  const env: string[] = [];
  const inner: Inner[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const v = a.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-u' || v === '--unset' || v === '-C' || v === '--chdir' || v === '-P') i++;
    else if (v === '-S' || v === '--split-string') {
      const script = args[i + 1];
      if (script) inner.push({ kind: 'script', script: { ...script, value: [script, ...args.slice(i + 2)].map((x) => x.value).join(' ') } });
      return { inner, env };
    } else if (v.startsWith('-S') || v.startsWith('--split-string=')) {
      const text = v.startsWith('-S') ? v.slice(2) : v.slice('--split-string='.length);
      inner.push({ kind: 'script', script: { ...a, value: [text, ...args.slice(i + 1).map((x) => x.value)].join(' ') } });
      return { inner, env };
    } else if (v.startsWith('-')) continue;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) env.push(v);
    else break;
  }
  return { inner: [...inner, ...command(args.slice(i))], env };
}

/** find's -exec/-execdir/-ok/-okdir commands (up to `;` or `+`), each run per found file (`{}`). */
function findCommands(args: readonly Arg[]): Inner[] {
  const inner: Inner[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(args[i]!.value)) continue;
    const end = args.findIndex((a, j) => j > i && (a.value === ';' || a.value === '+'));
    const argv = args.slice(i + 1, end === -1 ? undefined : end).map((a) => (a.value.includes('{}') ? { ...a, dynamic: true, fromList: true } : a));
    inner.push(...command(argv, true));
    i = end === -1 ? args.length : end;
  }
  return inner;
}

const XARGS_VALUED = new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var']);

function xargsCommand(args: readonly Arg[]): Inner[] {
  let replace: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-I' || v === '--replace') replace = args[i + 1]?.value;
    if (v.startsWith('-I') && v.length > 2) replace = v.slice(2);
    if (v === '-i' || v.startsWith('--replace=') || (v.startsWith('-i') && v.length > 2)) replace = v.startsWith('--replace=') ? v.slice(10) : v.slice(2) || '{}';
    if (XARGS_VALUED.has(v)) i++;
    else if (!v.startsWith('-') || v === '-') break;
  }
  const rest = args.slice(i);
  if (rest.length === 0) return [];
  const marked = rest.map((a) => (replace !== undefined && a.value.includes(replace) ? { ...a, dynamic: true, fromList: true } : a));
  return command(replace === undefined ? [...marked, { value: '{items}', dynamic: true, glob: false, fromList: true }] : marked, true);
}

function watchCommand(args: readonly Arg[]): Inner[] {
  const exec = args.some((a) => a.value === '-x' || a.value === '--exec');
  const rest = afterOptions(args, { valued: ['-n', '--interval', '-q', '--equexit'] });
  if (rest.length === 0) return [];
  return exec ? command(rest) : [{ kind: 'script', script: { ...rest[0]!, value: rest.map((a) => a.value).join(' '), dynamic: rest.some((a) => a.dynamic) } }];
}

const PARALLEL_VALUED = ['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file', '--colsep', '-d', '--delimiter', '-I', '--results', '--joblog', '--tmpdir', '-n', '-N', '-L', '--timeout', '--retries', '--halt', '-E', '--sshloginfile', '--basefile', '--workdir', '--env', '--tag-string'];

function parallelCommand(args: readonly Arg[]): Inner[] {
  const sep = args.findIndex((a) => /^:{3,4}\+?$/.test(a.value));
  const head = afterOptions(sep === -1 ? args : args.slice(0, sep), { valued: PARALLEL_VALUED });
  if (head.length > 0) {
    const placeholders = ['{}', '{.}', '{/}', '{//}', '{/.}', '{#}', '{%}', '{1}', '{2}'];
    const words = head.map((a) => a.value);
    // Without a placeholder parallel appends each input to the command.
    const value = (placeholders.some((p) => words.some((w) => w.includes(p))) ? words : [...words, '{}']).join(' ');
    return [{ kind: 'script', script: { ...head[0]!, value, dynamic: head.some((a) => a.dynamic) }, list: true, placeholders }];
  }
  // No command: every input is a command line.
  const inputs = sep === -1 ? [] : args.slice(sep + 1).filter((a) => !/^:{3,4}\+?$/.test(a.value));
  if (sep === -1) return [{ kind: 'script', script: { value: '$(stdin)', dynamic: true, glob: false } }];
  return inputs.map((a) => ({ kind: 'script', script: a }));
}

function flockCommand(args: readonly Arg[]): Inner[] {
  const dashC = args.findIndex((a) => a.value === '-c' || a.value === '--command');
  if (dashC !== -1 && args[dashC + 1]) return [{ kind: 'script', script: args[dashC + 1]! }];
  return command(afterOptions(args, { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], positional: 1 }));
}

function scriptCommand(args: readonly Arg[]): Inner[] {
  const dashC = args.findIndex((a) => a.value === '-c' || a.value === '--command');
  if (dashC !== -1 && args[dashC + 1]) return [{ kind: 'script', script: args[dashC + 1]! }];
  // BSD form: script [-aq] [file [command ...]]
  return command(afterOptions(args, { valued: ['-t', '-T', '-F'], positional: 1 }));
}

/** What a wrapper runs; undefined when `cmd` is not a wrapper. */
export function unwrap(cmd: Invocation): Unwrapped | undefined {
  const none = (inner: Inner[]): Unwrapped => ({ inner, env: [] });
  switch (cmd.name) {
    case 'env':
      return envWrapper(cmd.args);
    case 'command':
      return cmd.args.some((a) => a.value === '-v' || a.value === '-V') ? none([]) : none(command(afterOptions(cmd.args, {})));
    case 'find':
      return none(findCommands(cmd.args));
    case 'xargs':
      return none(xargsCommand(cmd.args));
    case 'busybox':
    case 'toybox':
      return none(command(cmd.args));
    case 'watch':
      return none(watchCommand(cmd.args));
    case 'parallel':
      return none(parallelCommand(cmd.args));
    case 'flock':
      return none(flockCommand(cmd.args));
    case 'script':
      return none(scriptCommand(cmd.args));
    default: {
      const spec = SIMPLE[cmd.name];
      return spec ? none(command(afterOptions(cmd.args, spec))) : undefined;
    }
  }
}
