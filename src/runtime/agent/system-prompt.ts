import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promptFileNotFoundMessage, type PromptSource } from '../../protocol/prompt-source';

export interface SystemPromptOptions {
  cwd: string;
  /** Replaces the default prompt (text, already resolved: see `resolvePromptSource`). */
  systemPrompt?: string;
  /** Appended to the prompt (texts, already resolved). */
  appendSystemPrompt?: string[];
  /** Skill names whose instructions are appended. */
  skills?: string[];
  home?: string;
  batchMode: boolean;
}

/** A system-prompt file or skill that cannot be used: the CLI exits 2 with this message. */
export class PromptSetupError extends Error {
  override name = 'PromptSetupError';
}

/**
 * The text of a prompt source: inline text as is; a file (relative to `cwd`, `~/` for the home directory) read as
 * UTF-8. A missing file is a PromptSetupError naming `option` and the value (see protocol/prompt-source for the rule).
 */
export function resolvePromptSource(source: PromptSource, option: string, cwd: string, home: string = os.homedir()): string {
  if (source.kind === 'text') return source.value;
  const value = source.value;
  const expanded = value === '~' || value.startsWith('~/') || value.startsWith('~\\') ? path.join(home, value.slice(1)) : value;
  const file = path.resolve(cwd, expanded);
  let ok: boolean;
  try {
    ok = existsSync(file) && statSync(file).isFile();
  } catch {
    ok = false;
  }
  if (!ok) throw new PromptSetupError(promptFileNotFoundMessage(option, value, file));
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new PromptSetupError(`${option} "${value}": cannot read ${file}: ${(e as Error).message}`);
  }
}

/** Finds a skill's instructions: `.agentcli/skills/<name>.md` or `<name>/SKILL.md`, project first, then user. */
export function loadSkill(name: string, cwd: string, home: string): string {
  if (!/^[\w.-]+$/.test(name)) throw new PromptSetupError(`invalid skill name "${name}": use letters, digits, ".", "_" or "-"`);
  const dirs = [path.join(cwd, '.agentcli', 'skills'), path.join(home, '.agentcli', 'skills')];
  const places = dirs.flatMap((dir) => [path.join(dir, `${name}.md`), path.join(dir, name, 'SKILL.md')]);
  for (const p of places) if (existsSync(p)) return readFileSync(p, 'utf8');
  throw new PromptSetupError(`skill "${name}" not found: looked in ${dirs.join(', ')} (for ${name}.md or ${name}/SKILL.md)`);
}

function defaultPrompt(cwd: string, batchMode: boolean): string {
  return [
    'You are agentcli, a coding agent working in the user\'s repository. Be direct and concise.',
    `Workspace: ${cwd}. Platform: ${process.platform}. Date: ${new Date().toISOString().slice(0, 10)}.`,
    'Use the tools to inspect and change files; read a file before editing it; prefer edit_file for small changes and',
    'write_file for new files; keep edits minimal and consistent with the surrounding code. Run commands to verify when useful.',
    batchMode
      ? 'Your file changes are collected as proposals that the user reviews and accepts after your turn; later reads show your proposals, but commands see the files on disk.'
      : 'Your file changes are written to disk.',
    'If a tool is denied, do not retry it: adapt or ask. When done, answer with a short summary of what you did.',
  ].join('\n');
}

/** The full system prompt: the replacement text or the default, then the appended texts, then each skill. */
export function buildSystemPrompt(opts: SystemPromptOptions): string {
  const home = opts.home ?? os.homedir();
  const parts = [opts.systemPrompt !== undefined ? opts.systemPrompt : defaultPrompt(opts.cwd, opts.batchMode)];
  for (const extra of opts.appendSystemPrompt ?? []) parts.push(extra);
  for (const skill of opts.skills ?? []) parts.push(`# Skill: ${skill}\n${loadSkill(skill, opts.cwd, home)}`);
  return parts.join('\n\n');
}
