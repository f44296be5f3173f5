import { execFileSync } from 'node:child_process';

const IDENTITY = ['-c', 'user.name=Automode Test', '-c', 'user.email=automode-test@example.invalid', '-c', 'commit.gpgsign=false'];

/** Runs git in `cwd` with a fixed identity; answers its stdout. */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** Makes `dir` a git repository with everything in it committed once (branch main). */
export function initRepo(dir: string): void {
  gitIn(dir, 'init', '-q', '-b', 'main');
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-q', '-m', 'initial');
}

/** `git status --porcelain` of the user's working tree (empty when clean). */
export function statusOf(dir: string): string {
  return gitIn(dir, 'status', '--porcelain', '--untracked-files=all');
}
