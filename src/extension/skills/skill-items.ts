/**
 * The pure parts of the skill commands: QuickPick items from recommendations, the name check, the summary of a
 * learning pass and the sentences shown when generating a skill is refused. No vscode import (unit-tested).
 */
import path from 'node:path';
import { SKILL_NAME_PATTERN, SKILL_NAME_RULE } from '../../protocol/constants';
import type { SkillRecommendation, SkillScope } from '../../protocol/learning';

export interface RecommendationItem {
  label: string;
  description: string;
  detail: string;
  picked: boolean;
  /** The catalogue name `updateLearnedSkills({ names })` takes. */
  name: string;
}

/** Best first (as the runtime sends them); the ones not installed yet are pre-checked. */
export function recommendationItems(recs: readonly SkillRecommendation[]): RecommendationItem[] {
  return recs.map((r) => ({
    label: r.title,
    description: [`${Math.round(r.score * 100)} %`, r.installed ? 'installed' : ''].filter(Boolean).join(' · '),
    detail: r.reasons.length > 0 ? r.reasons.join('; ') : 'no specific reason given',
    picked: !r.installed,
    name: r.name,
  }));
}

/** The InputBox validation message for a skill name, or undefined when it is valid. */
export function skillNameProblem(value: string): string | undefined {
  if (value === '') return `Enter a name: ${SKILL_NAME_RULE}.`;
  return SKILL_NAME_PATTERN.test(value) ? undefined : `Not a valid skill name: ${SKILL_NAME_RULE}.`;
}

export interface LearnResult {
  written: readonly { name: string; path: string; status: 'created' | 'updated' | 'unchanged' }[];
  skipped: readonly { name: string; path: string; reason: string }[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "Learned 3 skills; skipped 1: edited since agentcli wrote it; your edits are kept …" */
export function learnSummary(r: LearnResult): string {
  const changed = r.written.filter((w) => w.status !== 'unchanged').length;
  const unchanged = r.written.length - changed;
  const parts = [`Learned ${plural(changed, 'skill')}`];
  if (unchanged > 0) parts[0] += ` (${unchanged} already up to date)`;
  if (r.skipped.length > 0) {
    const reasons = [...new Set(r.skipped.map((s) => s.reason))];
    const why = r.skipped.length === 1 ? reasons[0] : r.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ');
    parts.push(`skipped ${r.skipped.length}: ${why}`);
  }
  return `${parts.join('; ')}.`;
}

/** The skills folder the result's files are in (`…/skills/<name>/SKILL.md`), or undefined when nothing was listed. */
export function skillsFolderOf(r: LearnResult): string | undefined {
  const file = r.written[0]?.path ?? r.skipped[0]?.path;
  return file ? path.dirname(path.dirname(file)) : undefined;
}

export const SCOPE_ITEMS: readonly { label: string; description: string; scope: SkillScope }[] = [
  { label: 'Project', description: '.agentcli/skills in this folder (can be committed)', scope: 'project' },
  { label: 'User', description: '~/.agentcli/skills (all your projects)', scope: 'user' },
];

export interface Refusal {
  message: string;
  button?: { title: string; command: string };
}

/**
 * A refused `generateSkill` as a sentence for the editor. `kind` is the SDK error class (RunInProgress,
 * BatchPending) or undefined for another error, whose runtime message is turned into plain words where known.
 */
export function generateRefusal(kind: 'run' | 'batch' | undefined, message: string, name: string): Refusal {
  if (kind === 'run') return { message: 'The agent is still working: wait for the run to finish or stop it, then generate the skill again.', button: { title: 'Stop', command: 'agentcli.stop' } };
  if (kind === 'batch') return { message: 'Proposed changes are waiting for your decision: accept or reject them, then generate the skill again.', button: { title: 'Review Changes', command: 'agentcli.reviewChanges' } };
  const exists = /a (project|user) skill "[^"]*" exists already \(([^)]*)\)/.exec(message);
  if (exists) return { message: `A ${exists[1]} skill named "${name}" exists already: choose another name, or edit that skill's file.` };
  if (/plan mode/.test(message)) return { message: 'A skill cannot be generated in plan mode: turn plan mode off, then try again.', button: { title: 'Toggle Plan Mode', command: 'agentcli.togglePlanMode' } };
  const cleaned = message.replace(/^invalid params for generateSkill: /, '').replace(/\.$/, '');
  return { message: `The skill could not be generated: ${cleaned}.` };
}
