import os from 'node:os';
import { RpcErrorCode } from '../../protocol/errors';
import { RuntimeRequestError } from '../agent/errors';
import type { Session } from '../agent/session';
import type { Handlers } from '../rpc/handler-types';
import { startGenerateSkill } from './generate-skill';
import { updateLearnedSkills } from './learned-skills';
import { recommendSkills } from './recommend';
import { listSkills } from './skill-dirs';

type LearningMethod = 'listSkills' | 'getLearningRecommendations' | 'updateLearnedSkills' | 'generateSkill';

/** The skills and learning methods of the rpc server (spec 001 §4.3, §6 `learning_progress`). */
export function learningHandlers(session: Session): Pick<Handlers, LearningMethod> {
  const home = () => session.homeDir ?? os.homedir();
  let updating = false;
  return {
    listSkills: () => ({ skills: listSkills(session.cwd, home()) }),
    getLearningRecommendations: async () => {
      const r = await recommendSkills(session.cwd, home());
      return { recommendations: r.recommendations, filesScanned: r.filesScanned, truncated: r.truncated };
    },
    updateLearnedSkills: async (p) => {
      if (updating) throw new RuntimeRequestError(RpcErrorCode.RunInProgress, 'updateLearnedSkills is already running: wait for its learning_progress "done"');
      updating = true;
      try {
        return await updateLearnedSkills({
          scope: p.scope ?? 'project',
          ...(p.names ? { names: p.names } : {}),
          cwd: session.cwd,
          home: home(),
          progress: (progress) => session.emit({ type: 'learning_progress', ...progress }),
        });
      } catch (e) {
        if (e instanceof RuntimeRequestError) throw e;
        throw new RuntimeRequestError(RpcErrorCode.InternalError, `updateLearnedSkills failed: ${(e as Error).message}`);
      } finally {
        updating = false;
      }
    },
    generateSkill: (p) => startGenerateSkill(session, { name: p.name, description: p.description, scope: p.scope ?? 'project' }, home()),
  };
}
