/** The text of a learned skill: its template's guidance plus the project's own facts (commands, languages, versions). */
import path from 'node:path';
import type { ScoredTemplate } from './recommend';
import type { ProjectSignals } from './signals';
import { LEARNED_PREFIX } from './skill-dirs';

const SCRIPT_ROLES: Array<[script: string, role: string]> = [
  ['test', 'Test'],
  ['lint', 'Lint'],
  ['typecheck', 'Type check'],
  ['build', 'Build'],
];

function oneLine(text: string, max = 160): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Facts about the project every learned skill states. */
export function projectFacts(s: ProjectSignals): string[] {
  const facts: string[] = [];
  const languages = [...s.languages].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 4);
  if (languages.length > 0) facts.push(`Languages (source files): ${languages.map(([l, n]) => `${l} ${n}`).join(', ')}.`);
  const scripts = s.npm?.scripts ?? {};
  for (const [script, role] of SCRIPT_ROLES) {
    const command = scripts[script];
    if (command === undefined) continue;
    const run = script === 'test' ? 'npm test' : `npm run ${script}`;
    facts.push(`${role}: \`${run}\` (runs \`${oneLine(command)}\`).`);
  }
  if (s.go) facts.push(`Go module \`${oneLine(s.go.module)}\`${s.go.version ? `, go ${oneLine(s.go.version, 20)}` : ''}; test with \`go test ./...\`.`);
  if (s.cargo) facts.push(`Cargo package${s.cargo.name ? ` \`${oneLine(s.cargo.name, 60)}\`` : ''}; test with \`cargo test\`.`);
  if (s.python.size > 0) {
    const names = [...s.python.keys()].slice(0, 12);
    facts.push(`Python packages declared: ${names.join(', ')}${s.python.size > names.length ? ', …' : ''}.`);
  }
  if (s.jvm.length > 0) facts.push(`Build files: ${s.jvm.join(', ')}.`);
  return facts;
}

/** The SKILL.md of `learned-<name>` for this project. Deterministic: the same project gives the same text. */
export function learnedSkillText(scored: ScoredTemplate, signals: ProjectSignals, cwd: string): string {
  const { template, recommendation } = scored;
  const name = `${LEARNED_PREFIX}${template.name}`;
  const project = signals.npm?.name ?? path.basename(path.resolve(cwd));
  const lines = [
    '---',
    `name: ${name}`,
    `description: ${template.title} for ${oneLine(project, 80)} (learned from the project by agentcli)`,
    '---',
    `# ${template.title}`,
    '',
    `Learned by \`agentcli skills learn\` from the project ${oneLine(project, 80)}. Refreshed when learned again; once`,
    'you edit this file it is yours and is no longer refreshed (remove it to learn it anew).',
    '',
    '## Why this skill applies',
    ...recommendation.reasons.map((r) => `- ${oneLine(r)}`),
    '',
    '## This project',
    ...projectFacts(signals).map((f) => `- ${f}`),
    '',
    '## Guidance',
    ...template.guidance.map((g) => `- ${g}`),
    '',
  ];
  return lines.join('\n');
}
