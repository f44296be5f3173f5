import * as z from './zod';
import { SKILL_NAME_PATTERN, SKILL_NAME_RULE } from './constants';

/** Where a skill lives: `project` is `<cwd>/.agentcli/skills`, `user` is `~/.agentcli/skills`. */
export const SkillScope = z.enum(['project', 'user']);
export type SkillScope = z.infer<typeof SkillScope>;

export { SKILL_NAME_PATTERN, SKILL_NAME_RULE };

/** One skill `--skill <name>` (or the SDK's `skills`) can enable. A project skill hides a user skill of the same name. */
export const SkillInfo = z.object({
  name: z.string(),
  scope: SkillScope,
  /** The skill's file: `<dir>/<name>.md` or `<dir>/<name>/SKILL.md`. */
  path: z.string(),
  /** Its first heading, or first non-empty line (bounded). */
  description: z.string(),
  /** Written by `updateLearnedSkills` (its name starts with `learned-`). */
  learned: z.boolean(),
});
export type SkillInfo = z.infer<typeof SkillInfo>;

/** A skill the project's signals point to, with why (`reasons`) and how strongly (`score`, 0..1). */
export const SkillRecommendation = z.object({
  /** The catalogue name; `updateLearnedSkills` writes it as `learned-<name>`. */
  name: z.string(),
  title: z.string(),
  score: z.number().min(0).max(1),
  reasons: z.array(z.string()),
  /** A skill named `<name>` or `learned-<name>` exists already (project or user). */
  installed: z.boolean(),
});
export type SkillRecommendation = z.infer<typeof SkillRecommendation>;

export const learningMethods = {
  /** The skills of the project and of the user, project first. */
  listSkills: { params: z.object({}).strict(), result: z.object({ skills: z.array(SkillInfo) }) },
  /**
   * Scores the built-in skill catalogue against the project's signals (dependencies, languages by file count, test
   * framework, config files, existing skills); only recommendations above the threshold, best first.
   */
  getLearningRecommendations: {
    params: z.object({}).strict(),
    result: z.object({
      recommendations: z.array(SkillRecommendation),
      /** Files looked at, and whether the walk stopped at its cap. */
      filesScanned: z.number().int().nonnegative(),
      truncated: z.boolean(),
    }),
  },
  /**
   * Writes or refreshes `learned-<name>/SKILL.md` for each recommendation, in the project's or the user's skills folder,
   * with `learning_progress` events. Never touches a skill without the `learned-` prefix, and skips a learned file
   * edited since it was written (its hash is kept in `learned.json`).
   */
  updateLearnedSkills: {
    params: z
      .object({
        scope: SkillScope.default('project'),
        /** Only these recommendations (catalogue names, without `learned-`); a name not recommended now is skipped. */
        names: z.array(z.string().min(1).max(100)).max(200).optional(),
      })
      .strict(),
    result: z.object({
      written: z.array(z.object({ name: z.string(), path: z.string(), status: z.enum(['created', 'updated', 'unchanged']) })),
      skipped: z.array(z.object({ name: z.string(), path: z.string(), reason: z.string() })),
    }),
  },
  /**
   * Starts a run in which the model reads the repository and writes `<scope dir>/skills/<name>/SKILL.md`; the file is
   * proposed as a change batch for review (the write to that one path is allowed for this run only). Refused for an
   * existing skill name unless it is a `learned-` one, in plan mode, and while a run is active or a batch awaits a
   * decision.
   */
  generateSkill: {
    params: z
      .object({
        name: z.string().regex(SKILL_NAME_PATTERN, `invalid skill name: ${SKILL_NAME_RULE}`),
        description: z.string().trim().min(1, 'describe what the skill should teach'),
        scope: SkillScope.default('project'),
      })
      .strict(),
    result: z.object({ runId: z.string(), path: z.string() }),
  },
} as const;

/** Progress of `updateLearnedSkills`: `scanning` the project, `writing` each skill (`skill` names it), then `done`. */
export const LearningProgressEvent = z.lazy(() =>
  z.object({
    type: z.literal('learning_progress'),
    sessionId: z.string(),
    phase: z.enum(['scanning', 'writing', 'done']),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    skill: z.string().optional(),
  }),
);
