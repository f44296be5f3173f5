/**
 * `generateSkill`: a run in which the model reads the repository with the read-only tools and writes
 * `<scope dir>/skills/<name>/SKILL.md` with `write_file`. The session collects writes as a change batch (rpc and the
 * CLI's `skills generate` both run in batch mode), so the file is proposed for review, never written by the run.
 *
 * `.agentcli/` and home dotfiles are protected paths (writes always ask). For this run only, writing exactly that one
 * SKILL.md is allowed (`PermissionPolicy.allowWriteOf`, after symlinks resolve; deny and ask rules still apply), and
 * for the user scope its folder is granted; both end with the run, as does the tool filter (read-only tools and
 * write_file only, so a hostile repository cannot talk the model into running commands).
 */
import path from 'node:path';
import { RpcErrorCode } from '../../protocol/errors';
import { SKILL_NAME_PATTERN, SKILL_NAME_RULE, type SkillScope } from '../../protocol/learning';
import { RuntimeRequestError } from '../agent/errors';
import type { Session } from '../agent/session';
import { LEARNED_PREFIX, listSkills, skillsDir, symlinkOnTheWay } from './skill-dirs';

/** The tools a generateSkill run is offered. */
export const GENERATE_SKILL_TOOLS = new Set(['read_file', 'list_files', 'grep', 'write_file']);
/** Longest description accepted (it goes into the prompt). */
export const MAX_SKILL_DESCRIPTION = 2000;

export interface GenerateSkillRequest {
  name: string;
  description: string;
  scope: SkillScope;
}

function invalid(message: string): never {
  throw new RuntimeRequestError(RpcErrorCode.InvalidParams, `invalid params for generateSkill: ${message}`);
}

/** Checks the name and the description; refuses an existing skill of that name unless it is a learned one. */
export function checkGenerateRequest(req: GenerateSkillRequest, cwd: string, home: string): void {
  if (!SKILL_NAME_PATTERN.test(req.name)) invalid(`"name" "${req.name}" is not a valid skill name: ${SKILL_NAME_RULE}`);
  const description = req.description.trim();
  if (description === '') invalid('"description" is empty: say what the skill should teach');
  if (description.length > MAX_SKILL_DESCRIPTION) invalid(`"description" is longer than ${MAX_SKILL_DESCRIPTION} characters`);
  const existing = listSkills(cwd, home).find((s) => s.name === req.name);
  if (existing && !req.name.startsWith(LEARNED_PREFIX)) {
    invalid(`a ${existing.scope} skill "${req.name}" exists already (${existing.path}): choose another name, or edit that file`);
  }
  const link = symlinkOnTheWay(req.scope === 'project' ? cwd : home, generatedSkillPath(req, cwd, home));
  if (link) invalid(`${link} is a symlink: a generated skill is not written through it (make it a real folder)`);
}

/** Where the generated skill goes: `<scope dir>/<name>/SKILL.md`. */
export function generatedSkillPath(req: Pick<GenerateSkillRequest, 'name' | 'scope'>, cwd: string, home: string): string {
  return path.join(skillsDir(req.scope, cwd, home), req.name, 'SKILL.md');
}

export function generateSkillPrompt(req: GenerateSkillRequest, target: string, cwd: string): string {
  const rel = path.relative(cwd, target);
  const shown = rel.startsWith('..') || path.isAbsolute(rel) ? target : rel;
  return [
    `Write a skill for this repository: a SKILL.md file of instructions a coding agent loads for tasks of this kind.`,
    `Skill name: ${req.name}`,
    `What it should teach: ${req.description.trim()}`,
    '',
    '1. First inspect the repository with the read-only tools (list_files, grep, read_file): its layout, languages,',
    '   build and test commands, and the conventions that matter for this skill. Read what you cite.',
    `2. Then call write_file exactly once, with path "${shown}" and the complete SKILL.md:`,
    `   a front matter block ("---", "name: ${req.name}", "description: <one line>", "---"), a "# <title>" heading,`,
    '   then concise, concrete instructions specific to this repository: commands, file locations, conventions, pitfalls.',
    'Change no other file. The file is proposed to the user for review. Finish with a one-line summary.',
  ].join('\n');
}

/** Starts the run; answers with its id and the SKILL.md path. Refused like any run (RunInProgress, BatchPending). */
export function startGenerateSkill(session: Session, req: GenerateSkillRequest, home: string): { runId: string; path: string } {
  checkGenerateRequest(req, session.cwd, home);
  if (session.planMode) {
    // A planning run would only propose a plan, and the run carrying it out would no longer have this run's allowance.
    throw new RuntimeRequestError(RpcErrorCode.InvalidParams, 'generateSkill does not run in plan mode: turn it off first (setPlanMode with enabled: false)');
  }
  const target = generatedSkillPath(req, session.cwd, home);
  const undo: Array<() => void> = [];
  const restore = () => undo.splice(0).reverse().forEach((f) => f());
  undo.push(session.policy.allowWriteOf(target, `generating skill "${req.name}" in this run`));
  const folder = path.dirname(target);
  if (req.scope === 'user' && !session.grants.isGranted(folder)) {
    session.grants.grantSession(folder);
    undo.push(() => session.grants.revokeSession(folder));
  }
  const previousFilter = session.toolFilter;
  session.toolFilter = (name) => GENERATE_SKILL_TOOLS.has(name);
  undo.push(() => (session.toolFilter = previousFilter));
  try {
    const run = session.startRun({ message: generateSkillPrompt(req, target, session.cwd) });
    void run.done.finally(restore);
    return { runId: run.runId, path: target };
  } catch (e) {
    restore();
    throw e;
  }
}
