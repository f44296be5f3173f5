/** Commands that always need a person's eye, even when an allow rule matches. */

const AS_OTHER_USER = new Set(['sudo', 'su', 'doas', 'pkexec', 'runuser']);
const DISK_AND_POWER = new Set(['dd', 'fdisk', 'sfdisk', 'parted', 'wipefs', 'shred', 'shutdown', 'reboot', 'halt', 'poweroff']);
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const DOWNLOADERS = new Set(['curl', 'wget']);

function baseName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

export function commandName(words: readonly string[]): string {
  return baseName(words[0] ?? '');
}

export function isShell(words: readonly string[]): boolean {
  return SHELLS.has(commandName(words));
}

export function isDownloader(words: readonly string[]): boolean {
  return DOWNLOADERS.has(commandName(words));
}

const HOME_FORMS = new Set(['~', '~/', '$HOME', '${HOME}', '"$HOME"', '$HOME/', '${HOME}/']);

function isSweepingTarget(arg: string): boolean {
  if (arg === '/' || arg === '/*' || arg === '.' || arg === '..' || arg === './' || HOME_FORMS.has(arg)) return true;
  if (arg.includes('*')) return true;
  if (/^(?:~|\$HOME|\$\{HOME\})\/[^/]*\/?$/.test(arg)) return true;
  return /^\/[^/]+\/?$/.test(arg);
}

function hasFlag(args: readonly string[], short: string, long?: string): boolean {
  return args.some(
    (arg) => (arg.startsWith('-') && !arg.startsWith('--') && arg.slice(1).includes(short)) || (long !== undefined && arg === long),
  );
}

/** Why this simple command is risky, or undefined. `words` are the normalized words (name first). */
export function riskOf(words: readonly string[]): string | undefined {
  const name = commandName(words);
  const args = words.slice(1);
  if (AS_OTHER_USER.has(name)) return `runs as another user (${name})`;
  if (name === 'eval') return 'runs text as a command (eval)';
  if (DISK_AND_POWER.has(name)) return `can destroy data or stop the machine (${name})`;
  if (name.startsWith('mkfs')) return `formats a disk (${name})`;
  if (name === 'rm') {
    if (args.includes('--no-preserve-root')) return 'removes the root directory';
    const recursive = hasFlag(args, 'r', '--recursive') || hasFlag(args, 'R');
    if (recursive && args.some((arg) => !arg.startsWith('-') && isSweepingTarget(arg))) {
      return 'removes files recursively from /, the home folder or a wildcard';
    }
  }
  if ((name === 'chmod' || name === 'chown') && (hasFlag(args, 'R', '--recursive'))) {
    if (args.some((arg) => arg === '777' || arg === 'a+rwx' || arg === 'ugo+rwx' || isSweepingTarget(arg))) {
      return `changes permissions recursively (${name} -R)`;
    }
  }
  if (name === 'chmod' && args.includes('777') && args.some((arg) => isSweepingTarget(arg))) return 'makes system files writable by all';
  if (name === 'kill' && args.includes('-1')) return 'kills every process';
  if (name === 'git' && args[0] === 'push' && args.some((arg) => arg === '--force' || arg === '-f' || arg.startsWith('--force'))) {
    return 'force-pushes over remote history';
  }
  return undefined;
}
