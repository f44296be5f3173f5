import { execFile } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';

/** A git command failed, or the folder is not in a git repository; the message says which and what to do. */
export class GitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitError';
  }
}

/**
 * The runtime's own git calls (worktree, commits, diffs) never run the repository's hooks or sign: they are bookkeeping
 * of the auto-mode run, and a hook is code the run did not ask for. The pager and prompts are off too.
 */
const SAFE_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false', '-c', 'commit.gpgsign=false', '-c', 'core.pager=cat', '-c', 'core.quotePath=false'];
/** Author of the branch's commits when git knows no identity (no user.name/email, no GIT_AUTHOR_* variables). */
const FALLBACK_IDENTITY = ['-c', 'user.name=agentcli', '-c', 'user.email=agentcli@localhost'];
const MAX_GIT_OUTPUT = 256 * 1024 * 1024;

export function git(cwd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE_CONFIG, ...args],
      { cwd, env: { ...(opts.env ?? process.env), GIT_TERMINAL_PROMPT: '0' }, maxBuffer: MAX_GIT_OUTPUT, encoding: 'buffer' },
      (err, stdout, stderr) => {
        if (err) {
          const detail = stderr.toString('utf8').trim() || err.message;
          reject(new GitError(`git ${args[0] ?? ''} failed in ${cwd}: ${detail}`));
        } else resolve(stdout.toString('utf8'));
      },
    );
  });
}

/** The top folder of the repository `cwd` is in; a clear GitError when there is none (or git is missing). */
export async function repositoryRoot(cwd: string): Promise<string> {
  try {
    return realpathSync.native((await git(cwd, ['rev-parse', '--show-toplevel'])).trim());
  } catch (e) {
    const missing = (e as Error).message.includes('ENOENT');
    throw new GitError(
      missing
        ? 'useWorktree needs git, and git was not found on PATH: install git, or start auto-mode without a worktree'
        : `useWorktree needs a git repository, and ${cwd} is not in one: run \`git init\` and commit once, or start auto-mode without a worktree`,
    );
  }
}

export interface Worktree {
  /** The worktree folder (outside the user's repository). */
  path: string;
  branch: string;
  /** The commit the branch started from. */
  base: string;
  repoRoot: string;
  /** The user's cwd inside the worktree (the same folder relative to the repository root). */
  cwd: string;
  /**
   * The worktree's git folder (in the repository's .git), read when it was made. Later git calls name it explicitly
   * (GIT_DIR), never through the worktree's `.git` file: commands of the run can write in the worktree, and a `.git`
   * pointing at a folder of their own (with a config that runs code) must not steer the runtime's own git calls.
   */
  gitDir: string;
}

/** Adds a worktree at `dir` on a new branch from HEAD. The repository needs a first commit. */
export async function createWorktree(userCwd: string, dir: string, branch: string): Promise<Worktree> {
  const repoRoot = await repositoryRoot(userCwd);
  let base: string;
  try {
    base = (await git(repoRoot, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  } catch {
    throw new GitError(`useWorktree needs a first commit in ${repoRoot} (the branch starts from HEAD): commit once, then start again`);
  }
  mkdirSync(path.dirname(dir), { recursive: true });
  await git(repoRoot, ['worktree', 'add', '-b', branch, dir, base]);
  const rel = path.relative(repoRoot, realpathSync.native(userCwd));
  const gitDir = path.resolve(dir, (await git(dir, ['rev-parse', '--git-dir'])).trim());
  return { path: dir, branch, base, repoRoot, cwd: path.join(dir, rel), gitDir };
}

/** Does git know who commits (config or environment)? */
async function hasIdentity(cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  try {
    await git(cwd, ['var', 'GIT_COMMITTER_IDENT'], { env });
    await git(cwd, ['var', 'GIT_AUTHOR_IDENT'], { env });
    return true;
  } catch {
    return false;
  }
}

/** Commits everything in the worktree (`git add -A`); false when there was nothing to commit. */
export async function commitAll(wt: Pick<Worktree, 'path' | 'gitDir'>, message: string, baseEnv: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const env = { ...baseEnv, GIT_DIR: wt.gitDir, GIT_WORK_TREE: wt.path };
  await git(wt.path, ['add', '-A'], { env });
  const staged = await git(wt.path, ['diff', '--cached', '--name-only', '-z'], { env });
  if (staged === '') return false;
  const identity = (await hasIdentity(wt.path, env)) ? [] : FALLBACK_IDENTITY;
  await git(wt.path, [...identity, 'commit', '--no-verify', '-q', '-m', message], { env });
  return true;
}

export interface BranchFileChange {
  /** Path relative to `under` (the user's cwd in the repository). */
  path: string;
  /** The content on the branch; null when the branch deleted the file. */
  content: string | null;
  binary: boolean;
}

/**
 * The files the branch changed against `base`, limited to `under` (a folder relative to the repository root, '' for
 * all), each with its content on the branch. Renames count as a delete and a create.
 */
export async function branchChanges(repoRoot: string, base: string, branch: string, under: string): Promise<BranchFileChange[]> {
  const scope = under === '' ? [] : ['--', under];
  const numstat = await git(repoRoot, ['diff', '--no-ext-diff', '--no-textconv', '--no-renames', '--numstat', '-z', base, branch, ...scope]);
  const out: BranchFileChange[] = [];
  for (const entry of numstat.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(entry);
    if (!m) continue;
    const file = m[3]!;
    const binary = m[1] === '-' && m[2] === '-';
    let content: string | null;
    try {
      await git(repoRoot, ['cat-file', '-e', `${branch}:${file}`]);
      content = binary ? '' : await git(repoRoot, ['show', `${branch}:${file}`]);
    } catch {
      content = null; // deleted on the branch
    }
    out.push({ path: under === '' ? file : path.relative(under, file), content, binary });
  }
  return out;
}
