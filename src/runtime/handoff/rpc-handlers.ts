import type { Handlers } from '../rpc/handler-types';
import type { HandoffController } from './controller';

type HandoffMethod = 'createBrowserHandoff' | 'attachBrowserHandoff' | 'attachLatestBrowserHandoff';

/** The three browser handoff methods of the rpc server (spec 001 §4.3). */
export function handoffHandlers(handoff: HandoffController): Pick<Handlers, HandoffMethod> {
  return {
    createBrowserHandoff: (p) => handoff.create(p),
    attachBrowserHandoff: (p) => handoff.attach(p.token),
    attachLatestBrowserHandoff: (p) => handoff.attachLatest(p),
  };
}
