/**
 * `updateLearnedSkills`: writes `learned-<name>/SKILL.md` for each recommended skill into the project's or the user's
 * skills folder. The user asked for it, so it writes directly (no change batch), but only `learned-*` files: a skill
 * without the prefix is never touched, and a learned file edited since agentcli wrote it (its SHA-256 is kept in
 * `learned.json` next to the skills) is skipped and reported. Nothing is written through a symlink.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SkillScope } from '../../protocol/learning';
import { recommendSkills } from './recommend';
import { learnedSkillText } from './skill-body';
import { LEARNED_PREFIX, skillsDir, symlinkOnTheWay } from './skill-dirs';

export const MANIFEST_FILE = 'learned.json';

export interface LearningProgress {
  phase: 'scanning' | 'writing' | 'done';
  done: number;
  total: number;
  skill?: string;
}

export interface LearnedSkillsResult {
  written: Array<{ name: string; path: string; status: 'created' | 'updated' | 'unchanged' }>;
  skipped: Array<{ name: string; path: string; reason: string }>;
}

interface Manifest {
  version: 1;
  skills: Record<string, { sha256: string }>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function readManifest(file: string): Manifest {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
    if (json && typeof json.skills === 'object' && json.skills !== null) {
      const skills = Object.fromEntries(
        Object.entries(json.skills).filter((e): e is [string, { sha256: string }] => typeof (e[1] as { sha256?: unknown })?.sha256 === 'string'),
      );
      return { version: 1, skills };
    }
  } catch {
    // missing or unreadable: no learned file is known to be agentcli's
  }
  return { version: 1, skills: {} };
}

/** Writes through a temp file and a rename, so a reader never sees half a file and a symlink at `file` is replaced. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { flag: 'wx' });
  renameSync(tmp, file);
}

export interface UpdateLearnedOptions {
  scope: SkillScope;
  cwd: string;
  home: string;
  progress?: (p: LearningProgress) => void;
  signal?: AbortSignal;
  /** Only these catalogue names; one not recommended now is reported as skipped. */
  names?: readonly string[];
}

export async function updateLearnedSkills(opts: UpdateLearnedOptions): Promise<LearnedSkillsResult> {
  const progress = opts.progress ?? (() => undefined);
  progress({ phase: 'scanning', done: 0, total: 0 });
  const recommended = await recommendSkills(opts.cwd, opts.home, opts.signal);
  const { signals } = recommended;
  const wanted = opts.names ? new Set(opts.names) : undefined;
  const scored = wanted ? recommended.scored.filter((s) => wanted.has(s.template.name)) : recommended.scored;
  const base = opts.scope === 'project' ? opts.cwd : opts.home;
  const dir = skillsDir(opts.scope, opts.cwd, opts.home);
  const link = symlinkOnTheWay(base, dir);
  if (link) throw new Error(`${link} is a symlink: learned skills are not written through it (make it a real folder)`);
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (isSymlink(manifestFile)) throw new Error(`${manifestFile} is a symlink: remove it and learn again`);
  const manifest = readManifest(manifestFile);
  const result: LearnedSkillsResult = { written: [], skipped: [] };
  for (const name of wanted ?? []) {
    if (scored.some((s) => s.template.name === name)) continue;
    result.skipped.push({ name: `${LEARNED_PREFIX}${name}`, path: path.join(dir, `${LEARNED_PREFIX}${name}`, 'SKILL.md'), reason: 'not recommended for this project now' });
  }
  const total = scored.length;
  for (const [index, item] of scored.entries()) {
    const name = `${LEARNED_PREFIX}${item.template.name}`;
    const skillDir = path.join(dir, name);
    const file = path.join(skillDir, 'SKILL.md');
    progress({ phase: 'writing', done: index, total, skill: name });
    const skip = (reason: string) => result.skipped.push({ name, path: file, reason });
    if (existsSync(path.join(dir, `${name}.md`))) {
      skip(`${name}.md exists and takes precedence; it was not written by agentcli, so it is left as is`);
      continue;
    }
    if (isSymlink(skillDir) || isSymlink(file)) {
      skip('it is a symlink; learned skills are written only as real files');
      continue;
    }
    const text = learnedSkillText(item, signals, opts.cwd);
    let status: 'created' | 'updated' | 'unchanged' = 'created';
    if (existsSync(file)) {
      const current = readFileSync(file, 'utf8');
      const known = manifest.skills[name]?.sha256;
      if (known === undefined) {
        skip(`not written by agentcli (no entry in ${MANIFEST_FILE}); it is left as is`);
        continue;
      }
      if (sha256(current) !== known) {
        skip('edited since agentcli wrote it; your edits are kept (remove the file to learn it anew)');
        continue;
      }
      status = current === text ? 'unchanged' : 'updated';
    }
    if (status !== 'unchanged') {
      mkdirSync(skillDir, { recursive: true });
      writeAtomic(file, text);
    }
    manifest.skills[name] = { sha256: sha256(text) };
    result.written.push({ name, path: file, status });
  }
  if (result.written.length > 0) {
    mkdirSync(dir, { recursive: true });
    writeAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  progress({ phase: 'done', done: total, total });
  return result;
}
