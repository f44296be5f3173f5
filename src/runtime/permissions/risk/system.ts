/** Privilege, disks, power, processes and persistence: commands that reach beyond the project into the machine. */
import { hasFlag, operands, optionValues, type Arg, type Invocation } from './args';
import { isDiskDevice, normalizePath, placeOf, runsLater, type RiskContext } from './paths';

const AS_OTHER_USER = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser', 'sudoedit', 'machinectl', 'run0']);
const ACCOUNTS = new Set(['passwd', 'chpasswd', 'useradd', 'usermod', 'userdel', 'groupadd', 'groupmod', 'adduser', 'deluser', 'visudo', 'setcap', 'chattr', 'newgrp', 'sg']);
const DISK_TOOLS = new Set(['fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'shred', 'blkdiscard', 'mkswap', 'mke2fs', 'mkdosfs', 'badblocks', 'zerofree', 'lvremove', 'vgremove', 'pvremove', 'diskutil', 'format']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff', 'suspend', 'hibernate', 'kexec']);
const KERNEL = new Set(['insmod', 'rmmod', 'modprobe', 'kextload', 'sysctl', 'iptables', 'ip6tables', 'nft', 'ufw', 'mount', 'umount', 'swapoff', 'swapon']);
/** Subcommands that only look. */
const SYSTEMCTL_READ = new Set(['status', 'show', 'cat', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'list-dependencies', 'list-jobs', 'is-active', 'is-enabled', 'is-failed', 'is-system-running', 'get-default', 'help', 'show-environment']);
const LAUNCHCTL_READ = new Set(['list', 'print', 'print-cache', 'print-disabled', 'blame', 'help', 'version', 'procinfo', 'managerpid', 'manageruid', 'managername', 'getenv', 'error']);
/** Environment variables that load code into whatever runs next. */
const CODE_INJECTING_ENV = /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|ENV|PROMPT_COMMAND|PERL5OPT|PERL5DB|RUBYOPT|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_TEMPLATE_DIR|GIT_EXEC_PATH)$/;
/** Environment variables whose value a program runs as a command: their value is judged as a script. */
export const COMMAND_VALUED_ENV = /^(?:GIT_SSH|GIT_SSH_COMMAND|GIT_EXTERNAL_DIFF|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|PAGER|MANPAGER|EDITOR|VISUAL|BROWSER|SUDO_ASKPASS|LESSOPEN|LESSCLOSE)$/;

/** Why an environment assignment (`NAME=value`) loads code into the command, or undefined. */
export function envAssignmentRisk(assignment: string): string | undefined {
  const eq = assignment.indexOf('=');
  const name = eq === -1 ? assignment : assignment.slice(0, eq);
  const value = eq === -1 ? '' : assignment.slice(eq + 1);
  if (CODE_INJECTING_ENV.test(name)) return `sets ${name}, which loads code into the commands it runs`;
  if (name === 'NODE_OPTIONS' && /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)\b/.test(value)) {
    return 'sets NODE_OPTIONS to load code into every node process';
  }
  return undefined;
}
/** Commands that write the files named in their arguments. */
export const WRITERS = new Set(['tee', 'cp', 'mv', 'ln', 'install', 'rsync', 'dd', 'sed', 'truncate', 'chmod', 'patch', 'ed', 'ex', 'touch', 'curl', 'wget', 'unzip', 'tar', 'scp']);

function killRisk(args: readonly Arg[]): string | undefined {
  const first = args[0]?.value;
  if (first === '-l' || first === '-L') return undefined;
  let start = 0;
  if (first === '-s' || first === '-n' || first === '--signal') start = 2;
  else if (first !== undefined && /^-[A-Za-z0-9+]+$/.test(first) && args.length > 1) start = 1;
  const pids = args.slice(start).filter((a) => a.value !== '--');
  return pids.some((p) => p.value === '-1' || p.value === '1') ? 'kills every process (kill -1)' : undefined;
}

function ddRisk(args: readonly Arg[], ctx: RiskContext): string | undefined {
  const out = args.find((a) => a.value.startsWith('of='));
  if (!out) return undefined;
  if (out.dynamic) return 'writes raw data to a target only known when it runs (dd of=…)';
  const p = normalizePath(out.value.slice(3), ctx);
  if (p === '/dev/null' || p === '/dev/stdout' || p === '/dev/stderr') return undefined;
  if (isDiskDevice(p) || p.startsWith('/dev/')) return `can destroy data: writes raw data to a device (dd ${out.value})`;
  const place = placeOf(p);
  return place === 'workspace' || place === 'temp' ? undefined : `writes raw data outside the workspace (dd ${out.value})`;
}

/** A writer naming a disk device or a file that runs later (startup files, authorized_keys, git hooks). */
function writerTargetRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  if (!WRITERS.has(cmd.name)) return undefined;
  if (cmd.name === 'sed' && !hasFlag(cmd.args, 'i', ['--in-place'])) return undefined;
  if ((cmd.name === 'curl' || cmd.name === 'wget') && optionValues(cmd.args, ['-o', '--output', '-O', '--output-document']).length === 0) return undefined;
  for (const a of cmd.args) {
    const value = a.value.replace(/^(?:of|--[a-z-]+)=/, '');
    if (a.dynamic || value.startsWith('-')) continue;
    const p = normalizePath(value, ctx);
    if (isDiskDevice(p)) return `writes to a disk device (${value})`;
    if (runsLater(p)) return `changes a file that runs code later (${value}): shell startup files, ssh keys, git hooks and system config`;
  }
  return undefined;
}

function serviceRisk(cmd: Invocation): string | undefined {
  const subs = operands(cmd.args);
  const verb = subs[0]?.value;
  if (cmd.name === 'systemctl' && verb !== undefined && !SYSTEMCTL_READ.has(verb)) return `changes system services or power (systemctl ${verb})`;
  if (cmd.name === 'launchctl' && verb !== undefined && !LAUNCHCTL_READ.has(verb)) return `installs or changes launch agents (launchctl ${verb})`;
  if (cmd.name === 'crontab' && !(cmd.args.length === 1 && cmd.args[0]!.value === '-l')) return 'changes scheduled jobs (crontab)';
  if (cmd.name === 'at' || cmd.name === 'batch') return !hasFlag(cmd.args, 'lV') ? `schedules a command to run later (${cmd.name})` : undefined;
  if (['update-rc.d', 'chkconfig', 'rc-update', 'service'].includes(cmd.name)) return `changes system services (${cmd.name})`;
  if ((cmd.name === 'init' || cmd.name === 'telinit') && subs.some((s) => /^[0-6sS]$/.test(s.value))) return 'changes the system runlevel';
  return undefined;
}

export function systemRisk(cmd: Invocation, ctx: RiskContext): string | undefined {
  const name = cmd.name;
  if (AS_OTHER_USER.has(name)) return `runs as another user (${name})`;
  if (ACCOUNTS.has(name)) return `changes accounts, capabilities or file attributes (${name})`;
  if (DISK_TOOLS.has(name)) return `can destroy disks or data (${name})`;
  if (name.startsWith('mkfs') || name === 'newfs') return `formats a disk (${name})`;
  if (POWER.has(name)) return `can stop the machine (${name})`;
  if (KERNEL.has(name) && !(name === 'mount' && cmd.args.length === 0) && !(name === 'sysctl' && !hasFlag(cmd.args, 'wp', ['--write', '--load', '--system']))) {
    return `changes the kernel, mounts or firewall (${name})`;
  }
  if (name === 'killall5') return 'kills every process (killall5)';
  if (name === 'kill') return killRisk(cmd.args);
  if ((name === 'pkill' || name === 'killall') && (hasFlag(cmd.args, 'u', ['--user']) || operands(cmd.args).some((a) => ['.', '.*', '^', ''].includes(a.value)))) {
    return `kills every process of a user (${name})`;
  }
  if (name === 'dd') return ddRisk(cmd.args, ctx) ?? writerTargetRisk(cmd, ctx);
  if (name === 'cryptsetup' && operands(cmd.args).some((a) => ['luksFormat', 'erase', 'luksErase', 'reencrypt'].includes(a.value))) return 'erases an encrypted disk';
  if ((name === 'zpool' || name === 'zfs') && operands(cmd.args)[0]?.value === 'destroy') return `destroys a storage pool (${name} destroy)`;
  if (name === 'hdparm' && cmd.args.some((a) => /^--(?:security-erase|trim-sector|write-sector)/.test(a.value))) return 'erases a disk (hdparm)';
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'readonly') {
    for (const a of cmd.args) {
      const why = a.value.includes('=') ? envAssignmentRisk(a.value) : undefined;
      if (why) return why;
    }
  }
  return serviceRisk(cmd) ?? writerTargetRisk(cmd, ctx);
}
