import fs from 'node:fs';
import path from 'node:path';

export interface GitProtection {
  /** Existing hook folders and config files: bound read-only again inside the writable workspace. */
  readOnly: string[];
  /** Hook folders that do not exist: an empty read-only folder is mounted there, so none can be created. */
  missingHooks: string[];
  /** Git folders outside the workspace that git must write to (a worktree's or submodule's gitdir). */
  writable: string[];
}

function realOrUndefined(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** The git folder `<dir>/.git` stands for: the folder itself, or the `gitdir:` a `.git` file points to. */
export function resolveGitDir(dir: string): string | undefined {
  const dotGit = path.join(dir, '.git');
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dotGit);
  } catch {
    return undefined;
  }
  if (stat.isDirectory() || stat.isSymbolicLink()) return realOrUndefined(dotGit);
  if (!stat.isFile()) return undefined;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(fs.readFileSync(dotGit, 'utf8'));
  return match?.[1] ? realOrUndefined(path.resolve(dir, match[1])) : undefined;
}

/** A worktree's gitdir names the repository's common folder (holding hooks and config) in its `commondir` file. */
function commonDir(gitDir: string): string | undefined {
  try {
    const text = fs.readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim();
    return text ? realOrUndefined(path.resolve(gitDir, text)) : undefined;
  } catch {
    return undefined;
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * What to protect for the repository at `workspace`: hooks and config run code or name programs (`core.hooksPath`,
 * `core.fsmonitor`, aliases), so a command must not be able to plant them for a later git run by a person.
 */
export function gitProtection(workspace: string): GitProtection {
  const gitDir = resolveGitDir(workspace);
  if (!gitDir) return { readOnly: [], missingHooks: [], writable: [] };
  const dirs = [gitDir];
  const common = commonDir(gitDir);
  if (common && common !== gitDir) dirs.push(common);
  const readOnly: string[] = [];
  const missingHooks: string[] = [];
  for (const dir of dirs) {
    for (const name of ['hooks', 'config']) {
      const p = path.join(dir, name);
      const real = realOrUndefined(p);
      if (real) readOnly.push(real);
      else if (name === 'hooks' && !fs.existsSync(p)) missingHooks.push(p);
    }
  }
  // Hooks live in the common folder of a worktree; its own gitdir needs none.
  return { readOnly, missingHooks: common ? missingHooks.filter((p) => !p.startsWith(gitDir + path.sep)) : missingHooks, writable: dirs.filter((d) => !isInside(d, workspace)) };
}
