/**
 * Small readers of the project signals that say what they found and why it matters: each returns a weight (0 when the
 * signal is absent) and the human reason shown with the recommendation.
 */
import type { ProjectSignals } from './signals';

export interface Evidence {
  weight: number;
  reason: string;
}

const NONE: Evidence[] = [];
/** Longest script command quoted in a reason. */
const MAX_SHOWN = 100;

/** The package.json dependency `name` (dependencies first), with its version. */
export function npmDependency(s: ProjectSignals, name: string, weight: number): Evidence[] {
  const dep = s.npm?.dependencies[name];
  if (dep !== undefined) return [{ weight, reason: `dependency ${name} ${dep}` }];
  const dev = s.npm?.devDependencies[name];
  if (dev !== undefined) return [{ weight, reason: `devDependency ${name} ${dev}` }];
  return NONE;
}

/** The first of `names` that package.json lists (alternatives of one kind: express, fastify, koa). */
export function anyNpmDependency(s: ProjectSignals, names: string[], weight: number): Evidence[] {
  for (const name of names) {
    const found = npmDependency(s, name, weight);
    if (found.length > 0) return found;
  }
  return NONE;
}

/** A package.json script that runs `word` (the first one, by script name order). */
export function npmScript(s: ProjectSignals, word: string, weight: number): Evidence[] {
  const scripts = s.npm?.scripts ?? {};
  const match = Object.keys(scripts)
    .sort()
    .find((k) => new RegExp(`(^|[\\s/])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`).test(scripts[k] ?? ''));
  if (match === undefined) return NONE;
  const command = (scripts[match] ?? '').replace(/\s+/g, ' ').trim();
  return [{ weight, reason: `script "${match}": ${command.length > MAX_SHOWN ? `${command.slice(0, MAX_SHOWN - 1)}…` : command}` }];
}

/** Files whose path matches `pattern`: one reason naming the first (and how many more). */
export function filesMatching(s: ProjectSignals, pattern: RegExp, weight: number, what = 'file'): Evidence[] {
  const found = s.files.filter((f) => pattern.test(f));
  if (found.length === 0) return NONE;
  const more = found.length > 1 ? ` (+${found.length - 1} more)` : '';
  return [{ weight, reason: `${what} ${found[0]}${more}` }];
}

/** How many files match (for counts such as "8 .tsx/.jsx files"; `what` is singular). */
export function countFiles(s: ProjectSignals, pattern: RegExp, weight: number, what: string, minimum = 1): Evidence[] {
  const count = s.files.filter((f) => pattern.test(f)).length;
  return count < minimum ? NONE : [{ weight, reason: `${count} ${what}${count === 1 ? '' : 's'}` }];
}

/** A language's share of the source files: full weight from half of them, less below (none under 5%). */
export function languageShare(s: ProjectSignals, language: string, weight: number): Evidence[] {
  const count = s.languages.get(language) ?? 0;
  if (count === 0 || s.sourceFiles === 0) return NONE;
  const share = count / s.sourceFiles;
  if (share < 0.05) return NONE;
  const percent = Math.round(share * 100);
  return [{ weight: weight * Math.min(1, share * 2), reason: `${count} ${language} file${count === 1 ? '' : 's'} (${percent}% of source files)` }];
}

/** A Python package named in pyproject.toml or a requirements file. */
export function pythonPackage(s: ProjectSignals, name: string, weight: number): Evidence[] {
  const file = s.python.get(name);
  return file === undefined ? NONE : [{ weight, reason: `${name} in ${file}` }];
}
