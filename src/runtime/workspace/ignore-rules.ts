import { promises as fs } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isWithin } from './paths';

interface RuleSet {
  dir: string;
  rules: Ignore;
}

async function readRules(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

function toPosix(rel: string): string {
  return rel.split(path.sep).join('/');
}

/**
 * The workspace's ignore rules: every `.gitignore` from the root down (nested ones apply to their own folder, deeper
 * rules win), plus the root's `.git/info/exclude`. `.git` itself is always ignored. Rule files are read once, lazily.
 */
export class IgnoreRules {
  private readonly cache = new Map<string, Promise<RuleSet | null>>();

  /** `root`: the folder whose rule files apply; paths outside it are checked only against `.git`. */
  constructor(readonly root: string) {}

  private ruleSetOf(dir: string): Promise<RuleSet | null> {
    let pending = this.cache.get(dir);
    if (!pending) {
      pending = (async () => {
        const texts = [await readRules(path.join(dir, '.gitignore'))];
        if (dir === this.root) texts.push(await readRules(path.join(dir, '.git', 'info', 'exclude')));
        const present = texts.filter((t): t is string => t !== null);
        return present.length === 0 ? null : { dir, rules: ignore().add(present.join('\n')) };
      })();
      this.cache.set(dir, pending);
    }
    return pending;
  }

  /** Decide one entry given the rule sets of its folder chain (root first). */
  private async decide(absPath: string, isDir: boolean): Promise<boolean> {
    let ignored = false;
    let dir = path.dirname(absPath);
    const chain: string[] = [];
    while (isWithin(this.root, dir)) {
      chain.unshift(dir);
      if (dir === this.root) break;
      dir = path.dirname(dir);
    }
    for (const folder of chain) {
      const set = await this.ruleSetOf(folder);
      if (!set) continue;
      const rel = toPosix(path.relative(set.dir, absPath)) + (isDir ? '/' : '');
      const result = set.rules.test(rel);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  /** Whether one entry itself is ignored (its parent folders are assumed to be visited, i.e. not ignored). */
  async ignoresEntry(absPath: string, isDir: boolean): Promise<boolean> {
    if (path.basename(absPath) === '.git') return true;
    if (!isWithin(this.root, absPath) || absPath === this.root) return false;
    return this.decide(absPath, isDir);
  }

  /** Whether a file is ignored, itself or through any ignored parent folder (for files not found by a walk). */
  async ignoresPath(absPath: string): Promise<boolean> {
    if (!isWithin(this.root, absPath)) return path.basename(absPath) === '.git';
    const parts = toPosix(path.relative(this.root, absPath)).split('/');
    let current = this.root;
    for (let i = 0; i < parts.length; i++) {
      current = path.join(current, parts[i] ?? '');
      if (await this.ignoresEntry(current, i < parts.length - 1)) return true;
    }
    return false;
  }
}
