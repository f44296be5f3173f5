import type { Handlers } from '../rpc/handler-types';
import type { AutomodeController } from './controller';

type AutomodeMethod = 'startAutomode' | 'getAutomodeStatus' | 'pauseAutomode' | 'resumeAutomode' | 'cancelAutomode' | 'getAutomodeLog';

/** The six auto-mode methods of the rpc server (spec 001 §4.3). */
export function automodeHandlers(automode: AutomodeController): Pick<Handlers, AutomodeMethod> {
  return {
    startAutomode: (p) => automode.start({ prompt: p.prompt, ...(p.maxIterations !== undefined ? { maxIterations: p.maxIterations } : {}), ...(p.useWorktree !== undefined ? { useWorktree: p.useWorktree } : {}) }),
    getAutomodeStatus: () => automode.status(),
    pauseAutomode: () => automode.pause(),
    resumeAutomode: () => automode.resume(),
    cancelAutomode: () => automode.cancel(),
    getAutomodeLog: () => automode.log(),
  };
}
