/**
 * Paths whose writes and deletes are never approved automatically (no mode, flag or allow rule lifts it; only an
 * interactive answer can): editor settings, the agent's own config, home dotfiles, system folders, the repository's
 * git folder (hooks and config run code), environment files, private keys and credential files.
 * A path is judged as written and on its resolved target, so a symlink alias of a protected file is protected too.
 */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { realPathOf } from '../workspace/paths';

const SYSTEM_ROOTS = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/boot', '/sys', '/proc', '/dev', '/var'];
const HARMLESS_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty']);

const KEY_FILES = new Set(['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'id_ecdsa_sk', 'id_ed25519_sk']);
const KEY_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx']);
const CREDENTIAL_FILES = new Set(['.npmrc', '.pypirc', '.netrc', '.git-credentials']);
/** A file named `name` directly inside a folder named `parent`. */
const CREDENTIAL_PAIRS: ReadonlyArray<[parent: string, name: string]> = [
  ['.docker', 'config.json'],
  ['.aws', 'credentials'],
  ['.aws', 'config'],
  ['.kube', 'config'],
];

export interface ProtectedPathContext {
  cwd: string;
  home?: string;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Why this exact path (no symlinks followed) is a credential or repository file, or undefined. */
function sensitiveFileReason(target: string): string | undefined {
  const segments = target.split(path.sep);
  const name = segments[segments.length - 1] ?? '';
  const parent = segments[segments.length - 2];
  const folders = segments.slice(0, -1);
  if (segments.includes('.git')) return 'it is inside a git folder (hooks and config run code)';
  if (name === '.env' || name.startsWith('.env.')) return 'it is an environment file (it usually holds secrets)';
  if (KEY_FILES.has(name) || KEY_EXTENSIONS.has(path.extname(name).toLowerCase())) return 'it is a private key or certificate file';
  if (folders.includes('.ssh')) return 'it is inside an ssh folder';
  if (CREDENTIAL_FILES.has(name)) return 'it is a credentials file';
  if (CREDENTIAL_PAIRS.some(([p, n]) => parent === p && name === n)) return 'it is a credentials file';
  if (folders.includes('.azure')) return 'it is inside a cloud credentials folder';
  if (folders.some((s, i) => s === '.config' && folders[i + 1] === 'gcloud')) return 'it is inside a cloud credentials folder';
  return undefined;
}

/**
 * The git folders of the repository around `cwd` that do not sit in a folder named `.git`: the target of a `.git`
 * file (`gitdir: ...`, worktrees and submodules), its common folder (where a worktree's hooks live), and the real
 * folder behind a symlinked `.git`. Found once per workspace.
 */
const gitDirCache = new Map<string, string[]>();

function readGitFile(dotGit: string): string[] {
  const found: string[] = [];
  let text: string;
  try {
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return found;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match?.[1]) return found;
  const gitDir = realPathOf(path.resolve(path.dirname(dotGit), match[1]));
  found.push(gitDir);
  try {
    const common = readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    if (common !== '') found.push(realPathOf(path.resolve(gitDir, common)));
  } catch {
    // not a worktree
  }
  return found;
}

export function gitDirsOf(cwd: string): string[] {
  const key = path.resolve(cwd);
  const cached = gitDirCache.get(key);
  if (cached) return cached;
  const dirs: string[] = [];
  let current = key;
  for (;;) {
    const dotGit = path.join(current, '.git');
    let info;
    try {
      info = statSync(dotGit);
    } catch {
      info = undefined;
    }
    if (info?.isFile()) dirs.push(...readGitFile(dotGit));
    else if (info?.isDirectory()) dirs.push(realPathOf(dotGit));
    if (info) break;
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  const outsideGitFolders = dirs.filter((d) => !d.split(path.sep).includes('.git'));
  gitDirCache.set(key, outsideGitFolders);
  return outsideGitFolders;
}

function reasonFor(target: string, ctx: ProtectedPathContext): string | undefined {
  const segments = target.split(path.sep);
  const parent = segments[segments.length - 2];
  if (parent === '.vscode' && target.endsWith('.json')) return 'it is an editor settings file';
  if (segments.includes('.agentcli')) return "it is the agent's own configuration";
  const sensitive = sensitiveFileReason(target);
  if (sensitive) return sensitive;
  if (gitDirsOf(ctx.cwd).some((dir) => isInside(target, dir))) return "it is inside the repository's git folder (hooks and config run code)";
  if (ctx.home !== undefined) {
    const home = path.resolve(ctx.home);
    if (isInside(target, home) && target !== home) {
      const first = path.relative(home, target).split(path.sep)[0] ?? '';
      const inWorkspace = isInside(target, ctx.cwd);
      if (first.startsWith('.') && (!inWorkspace || path.dirname(target) === home)) return 'it is a dotfile in the home folder';
    }
  }
  if (HARMLESS_DEVICES.has(target) || isInside(target, ctx.cwd)) return undefined;
  if (SYSTEM_ROOTS.some((root) => isInside(target, root))) return 'it is a system path';
  return undefined;
}

/**
 * Why writing or deleting `absolutePath` always asks, or undefined when it is an ordinary path. The path is judged as
 * given and, when symlinks lead elsewhere, on its resolved target (a symlink `notes.txt -> .git/hooks/pre-commit`).
 */
export function protectedReason(absolutePath: string, ctx: ProtectedPathContext): string | undefined {
  const target = path.resolve(absolutePath);
  const direct = reasonFor(target, ctx);
  if (direct) return direct;
  if (HARMLESS_DEVICES.has(target)) return undefined;
  const real = realPathOf(target);
  if (real === target) return undefined;
  const viaLink = reasonFor(real, { ...ctx, cwd: realPathOf(path.resolve(ctx.cwd)) });
  return viaLink ? `it resolves through a symlink to ${real}: ${viaLink}` : undefined;
}
