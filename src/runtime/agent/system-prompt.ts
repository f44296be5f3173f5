import { existsSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SystemPromptOptions {
  cwd: string;
  /** Replaces the default prompt (inline text or a file path). */
  systemPrompt?: string;
  /** Appended to the prompt (inline text or a file path). */
  appendSystemPrompt?: string[];
  /** Skill names whose instructions are appended. */
  skills?: string[];
  home?: string;
  batchMode: boolean;
}

/** A value that names an existing file is read as that file; anything else is inline text. */
export function readTextOrFile(value: string, cwd: string): string {
  if (!value.includes('\n') && value.length < 4096) {
    const candidate = path.resolve(cwd, value.startsWith('~/') ? path.join(os.homedir(), value.slice(2)) : value);
    try {
      if (existsSync(candidate) && statSync(candidate).isFile()) return readFileSync(candidate, 'utf8');
    } catch {
      // not readable as a file: inline text
    }
  }
  return value;
}

/** Finds a skill's instructions: `.agentcli/skills/<name>.md` or `<name>/SKILL.md`, project first, then user. */
export function loadSkill(name: string, cwd: string, home: string): string {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`invalid skill name "${name}": use letters, digits, ".", "_" or "-"`);
  const places = [path.join(cwd, '.agentcli', 'skills'), path.join(home, '.agentcli', 'skills')].flatMap((dir) => [
    path.join(dir, `${name}.md`),
    path.join(dir, name, 'SKILL.md'),
  ]);
  for (const p of places) if (existsSync(p)) return readFileSync(p, 'utf8');
  throw new Error(`skill "${name}" not found; looked in:\n  ${places.join('\n  ')}`);
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

export function buildSystemPrompt(opts: SystemPromptOptions): string {
  const home = opts.home ?? os.homedir();
  const parts = [opts.systemPrompt !== undefined ? readTextOrFile(opts.systemPrompt, opts.cwd) : defaultPrompt(opts.cwd, opts.batchMode)];
  for (const extra of opts.appendSystemPrompt ?? []) parts.push(readTextOrFile(extra, opts.cwd));
  for (const skill of opts.skills ?? []) parts.push(`# Skill: ${skill}\n${loadSkill(skill, opts.cwd, home)}`);
  return parts.join('\n\n');
}
