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

const toPosix = path.sep === '/' ? (rel: string) => rel : (rel: string) => rel.split(path.sep).join('/');

/** `absPath` relative to `dir`, an ancestor folder of it, in `/` form: a slice when the prefix shows it. */
function relativeBelow(dir: string, absPath: string): string {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return toPosix(absPath.startsWith(prefix) ? absPath.slice(prefix.length) : path.relative(dir, absPath));
}

/**
 * The workspace's ignore rules: every `.gitignore` from the root down (nested ones apply to their own folder, deeper
 * rules win), plus the root's `.git/info/exclude`. `.git` itself is always ignored. Rule files are read once, lazily.
 */
export class IgnoreRules {
  private readonly cache = new Map<string, Promise<RuleSet | null>>();
  private readonly chains = new Map<string, Promise<RuleSet[]>>();

  /** `root`: the folder whose rule files apply; paths outside it are checked only against `.git`. */
  constructor(readonly root: string) {}

  private ruleSetOf(dir: string): Promise<RuleSet | null> {
    let pending = this.cache.get(dir);
    if (!pending) {
      pending = (async () => {
        const texts = await Promise.all([
          readRules(path.join(dir, '.gitignore')),
          dir === this.root ? readRules(path.join(dir, '.git', 'info', 'exclude')) : null,
        ]);
        const present = texts.filter((t): t is string => t !== null);
        return present.length === 0 ? null : { dir, rules: ignore().add(present.join('\n')) };
      })();
      this.cache.set(dir, pending);
    }
    return pending;
  }

  /**
   * The rule sets that apply to entries of `dir` (a folder within the root), root first. Worked out once per folder and
   * shared by its entries and subfolders: a listing checks hundreds of files in a few folders.
   */
  private chainOf(dir: string): Promise<RuleSet[]> {
    let chain = this.chains.get(dir);
    if (!chain) {
      const parent = path.dirname(dir);
      const above = dir === this.root || parent === dir || !isWithin(this.root, parent) ? Promise.resolve([]) : this.chainOf(parent);
      chain = Promise.all([above, this.ruleSetOf(dir)]).then(([sets, own]) => (own ? [...sets, own] : sets));
      this.chains.set(dir, chain);
    }
    return chain;
  }

  /** Decide one entry given the rule sets of its folder chain (root first): the deepest rule that speaks wins. */
  private async decide(absPath: string, isDir: boolean): Promise<boolean> {
    let ignored = false;
    for (const set of await this.chainOf(path.dirname(absPath))) {
      const result = set.rules.test(relativeBelow(set.dir, absPath) + (isDir ? '/' : ''));
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
