/** Scores the skill catalogue against a project's signals (`getLearningRecommendations`). */
import type { SkillInfo, SkillRecommendation } from '../../protocol/learning';
import { CATALOGUE, type SkillTemplate } from './catalogue';
import { scanProject, type ProjectSignals } from './signals';
import { LEARNED_PREFIX, listSkills } from './skill-dirs';

/** A skill is recommended from this score up (a single strong signal such as a test framework dependency reaches it). */
export const RECOMMENDATION_THRESHOLD = 0.5;

export interface ScoredTemplate {
  template: SkillTemplate;
  recommendation: SkillRecommendation;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Every catalogue skill at or above the threshold, best first (ties by name), each with its reasons. */
export function scoreCatalogue(signals: ProjectSignals, skills: SkillInfo[]): ScoredTemplate[] {
  const names = new Set(skills.map((s) => s.name));
  const scored: ScoredTemplate[] = [];
  for (const template of CATALOGUE) {
    const evidence = template.evidence(signals).filter((e) => e.weight > 0);
    const score = round2(Math.min(1, evidence.reduce((sum, e) => sum + e.weight, 0)));
    if (score < RECOMMENDATION_THRESHOLD) continue;
    const installed = names.has(template.name) || names.has(`${LEARNED_PREFIX}${template.name}`);
    scored.push({ template, recommendation: { name: template.name, title: template.title, score, reasons: evidence.map((e) => e.reason), installed } });
  }
  return scored.sort((a, b) => b.recommendation.score - a.recommendation.score || a.template.name.localeCompare(b.template.name));
}

export interface Recommendations {
  recommendations: SkillRecommendation[];
  scored: ScoredTemplate[];
  signals: ProjectSignals;
  filesScanned: number;
  truncated: boolean;
}

export async function recommendSkills(cwd: string, home: string, signal?: AbortSignal): Promise<Recommendations> {
  const signals = await scanProject(cwd, signal);
  const scored = scoreCatalogue(signals, listSkills(cwd, home));
  return { recommendations: scored.map((s) => s.recommendation), scored, signals, filesScanned: signals.files.length, truncated: signals.truncated };
}
