/**
 * Where skills live and which exist: `<cwd>/.agentcli/skills` (project) and `~/.agentcli/skills` (user), each skill
 * either `<name>.md` or `<name>/SKILL.md` — the places `--skill <name>` reads (see agent/system-prompt.ts loadSkill).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SkillInfo, SkillScope } from '../../protocol/learning';

/** Skills written by `updateLearnedSkills` carry this prefix; no other skill is ever written or refreshed by it. */
export const LEARNED_PREFIX = 'learned-';

export function skillsDir(scope: SkillScope, cwd: string, home: string): string {
  return path.join(scope === 'project' ? cwd : home, '.agentcli', 'skills');
}

/** The first heading (or first non-empty line) of a skill file, without markdown markers, at most 120 characters. */
export function describeSkill(text: string): string {
  const body = text.replace(/^---\n[\s\S]*?\n---\n/, (front) => {
    const description = /^description:\s*(.+)$/m.exec(front)?.[1];
    return description ? `${description}\n` : '';
  });
  const line = body.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  const plain = line.replace(/^#+\s*/, '');
  return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
}

function readHead(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(0, 4096);
  } catch {
    return '';
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The skills of one folder, sorted by name. */
function skillsIn(scope: SkillScope, dir: string): SkillInfo[] {
  if (!existsSync(dir)) return [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = new Map<string, string>();
  for (const entry of entries) {
    if (entry.isFile() && entry.name.endsWith('.md')) found.set(entry.name.slice(0, -3), path.join(dir, entry.name));
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name, 'SKILL.md');
    // `<name>.md` wins over `<name>/SKILL.md`, as in loadSkill.
    if (entry.isDirectory() && !found.has(entry.name) && isFile(file)) found.set(entry.name, file);
  }
  return [...found]
    .filter(([name]) => /^[\w.-]+$/.test(name))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, file]) => ({ name, scope, path: file, description: describeSkill(readHead(file)), learned: name.startsWith(LEARNED_PREFIX) }));
}

/** Project skills, then user skills; a user skill hidden by a project skill of the same name is left out. */
export function listSkills(cwd: string, home: string): SkillInfo[] {
  const project = skillsIn('project', skillsDir('project', cwd, home));
  const names = new Set(project.map((s) => s.name));
  const sameDir = path.resolve(skillsDir('project', cwd, home)) === path.resolve(skillsDir('user', cwd, home));
  const user = sameDir ? [] : skillsIn('user', skillsDir('user', cwd, home)).filter((s) => !names.has(s.name));
  return [...project, ...user];
}

/** The first symlink among the folders (and file) from `base` down to `target`, or undefined: nothing is written through one. */
export function symlinkOnTheWay(base: string, target: string): string | undefined {
  let current = path.resolve(base);
  for (const part of path.relative(current, path.resolve(target)).split(path.sep)) {
    if (part === '' || part === '..') return undefined;
    current = path.join(current, part);
    try {
      if (lstatSync(current).isSymbolicLink()) return current;
    } catch {
      return undefined; // missing from here down
    }
  }
  return undefined;
}
