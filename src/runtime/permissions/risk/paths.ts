/**
 * What a path argument points at, for the risk checks: the workspace, a temp folder, the home folder, a system folder,
 * a disk device, a credential file or a file that runs code later (shell startup files, authorized_keys, git hooks).
 * Paths are compared as text after `~`, `$HOME` and the workspace are put in one form, so the checks work with or
 * without knowing the real folders.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export interface RiskContext {
  /** The workspace root (relative paths resolve against it). */
  cwd?: string;
  /** The home folder (`~` and `$HOME`). */
  home?: string;
}

const TEMP_ROOTS = [...new Set(['/tmp', '/var/tmp', path.resolve(os.tmpdir())])];
const SYSTEM_ROOTS = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/boot', '/sys', '/proc', '/dev', '/var', '/opt', '/root', '/srv', '/System', '/Library', '/Applications', '/private'];

function isInside(child: string, parent: string): boolean {
  const rel = path.posix.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.posix.isAbsolute(rel));
}

/**
 * The path in one form: `~/...` for anything in a home folder (the known one, `/root`, `/home/<user>`, `/Users/<user>`),
 * absolute for other absolute paths, and `./...` for paths relative to the workspace (`..` kept when it leaves it).
 */
export function normalizePath(value: string, ctx: RiskContext): string {
  let p = value.replace(/\/+$/, '') || (value.startsWith('/') ? '/' : value);
  if (p === '~' || p.startsWith('~/')) p = `~${path.posix.normalize(p.slice(1) || '/')}`.replace(/\/$/, '') || '~';
  else if (p.startsWith('/')) p = path.posix.normalize(p);
  else if (ctx.cwd !== undefined) p = path.posix.resolve(ctx.cwd, p);
  else {
    const rel = path.posix.normalize(p);
    return rel === '.' ? '.' : rel.startsWith('..') ? rel : `./${rel}`;
  }
  if (p.startsWith('/')) {
    if (ctx.cwd !== undefined && isInside(p, path.resolve(ctx.cwd))) {
      const rel = path.posix.relative(path.resolve(ctx.cwd), p);
      return rel === '' ? '.' : `./${rel}`;
    }
    if (ctx.home !== undefined && isInside(p, path.resolve(ctx.home))) return `~${p.slice(path.resolve(ctx.home).length)}`.replace(/\/$/, '') || '~';
    const other = /^(?:\/root|\/home\/[^/]+|\/Users\/[^/]+)(\/.*)?$/.exec(p);
    if (other) return `~${other[1] ?? ''}`;
  }
  return p;
}

export type Place = 'workspace-root' | 'workspace' | 'above-workspace' | 'temp-root' | 'temp' | 'home' | 'home-root' | 'system' | 'root' | 'elsewhere';

/** Where a normalized path lies. */
export function placeOf(normalized: string): Place {
  const p = normalized;
  if (p === '.') return 'workspace-root';
  if (p.startsWith('./')) return 'workspace';
  if (p === '..' || p.startsWith('../')) return 'above-workspace';
  if (p === '~') return 'home-root';
  if (p.startsWith('~/')) return 'home';
  if (p === '/') return 'root';
  if (TEMP_ROOTS.includes(p)) return 'temp-root';
  if (TEMP_ROOTS.some((root) => isInside(p, root))) return 'temp';
  if (SYSTEM_ROOTS.some((root) => isInside(p, root))) return 'system';
  if (/^\/[^/]+$/.test(p)) return 'root';
  return 'elsewhere';
}

/** A glob segment that matches everything in its folder (`*`, `.*`, `**`, `?*`, `.[!.]*`). */
function isSweepingGlob(segment: string): boolean {
  return /^[.*?]*\*[*?]*$/.test(segment) || /^\.?\[!.\]\*$/.test(segment);
}

/**
 * Does a glob sweep a whole root folder (`*`, `./*`, `~/*`, `/*`, `/tmp/*`, `/usr/*`)? A glob below a named folder of
 * the workspace or a temp folder (`dist/*`, `/tmp/x/*`) or with a name part (`*.log`) does not.
 */
export function globSweepsRoot(normalized: string): boolean {
  const segments = normalized.split('/');
  const index = segments.findIndex((s) => /[*?[]/.test(s));
  if (index === -1 || !isSweepingGlob(segments[index]!)) return false;
  const place = placeOf(segments.slice(0, index).join('/') || '/');
  return place !== 'workspace' && place !== 'temp';
}

/** The words a simple brace list stands for (`{a,b}/c` gives `a/c`, `b/c`); other words as they are. */
export function expandBraces(value: string): string[] {
  const m = /^(.*?)\{([^{}]*,[^{}]*)\}(.*)$/.exec(value);
  if (!m) return [value];
  return m[2]!.split(',').flatMap((alt) => expandBraces(`${m[1]}${alt}${m[3]}`));
}

const DISK_DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|loop|md|dm-|disk|rdisk|mapper\/|sr\d|fd\d|mem$|kmem$|port$|root$)/;

export function isDiskDevice(normalized: string): boolean {
  return DISK_DEVICE.test(normalized);
}

export function isNetworkDevice(value: string): boolean {
  return /^\/dev\/(?:tcp|udp)\//.test(value) || /(?:^|[\s>'"])\/dev\/(?:tcp|udp)\//.test(value);
}

/** Files holding keys or passwords: reading them sends them to the model, uploading them leaks them. */
const SECRET_FILES: RegExp[] = [
  /^~\/\.ssh$/,
  /^~\/\.ssh\/(?!.*\.pub$)(?!known_hosts)(?!config$).+/,
  /^~\/\.aws(?:\/|$)/,
  /^~\/\.gnupg(?:\/|$)/,
  /^~\/\.(?:netrc|git-credentials|vault-token|pgpass|my\.cnf|npmrc|pypirc)$/,
  /^~\/\.docker\/config\.json$/,
  /^~\/\.kube(?:\/|$)/,
  /^~\/\.config\/(?:gcloud|gh|hub)(?:\/|$)/,
  /^~\/\.azure(?:\/|$)/,
  /^~\/\.agentcli\/config\.json$/,
  /^~\/\.password-store(?:\/|$)/,
  /^~\/\.local\/share\/keyrings(?:\/|$)/,
  /^\/etc\/(?:g?shadow|sudoers|master\.passwd)(?:$|\/)/,
  /^\/proc\/[^/]+\/environ$/,
  /(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)(?!.*\.pub$)[^/]*$/,
];

/** Project files that usually hold secrets: uploading them is exfiltration, reading them is ordinary. */
const CREDENTIAL_FILES: RegExp[] = [
  /(?:^|\/)\.env(?:\.[^/]*)?$/,
  /\.(?:pem|key|p12|pfx|keystore|jks|kdbx)$/,
  /(?:^|\/)(?:credentials|secrets?)(?:\.[^/]*)?$/,
  /(?:^|\/)service[-_]?account[^/]*\.json$/,
  /(?:^|\/)\.(?:netrc|git-credentials|npmrc|pypirc)$/,
];

export function isSecretFile(normalized: string): boolean {
  return SECRET_FILES.some((re) => re.test(normalized));
}

export function isCredentialFile(normalized: string): boolean {
  return isSecretFile(normalized) || CREDENTIAL_FILES.some((re) => re.test(normalized));
}

/** Files whose content runs later by itself: shell startup files, ssh keys and rc, autostart and service folders, git hooks. */
const RUNS_LATER: RegExp[] = [
  /^~\/\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|xinitrc|xprofile|xsession|pam_environment|inputrc)$/,
  /^~\/\.config\/fish(?:\/|$)/,
  /^~\/\.ssh\/(?:authorized_keys2?|rc|config|environment)$/,
  /^~\/\.config\/(?:autostart|systemd|environment\.d)(?:\/|$)/,
  /^~\/Library\/(?:LaunchAgents|LaunchDaemons)(?:\/|$)/,
  /^\/Library\/(?:LaunchAgents|LaunchDaemons|StartupItems)(?:\/|$)/,
  /^\/etc\//,
  /^\/var\/spool\/cron(?:\/|$)/,
  /(?:^|\/)\.git\/(?:hooks(?:\/|$)|config$)/,
  /^~\/\.(?:gitconfig|config\/git\/config)$/,
  /^~\/\.(?:bashrc|zshrc|profile)\.d(?:\/|$)/,
];

export function runsLater(normalized: string): boolean {
  return RUNS_LATER.some((re) => re.test(normalized));
}
