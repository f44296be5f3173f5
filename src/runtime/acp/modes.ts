/**
 * The session modes an ACP client can switch between (`session/set_mode`), mapped onto our permission mode and plan
 * mode. Deny rules and protected paths apply in every mode.
 */
import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import type { Session } from '../agent/session';

export const ACP_MODES: SessionMode[] = [
  { id: 'interactive', name: 'Ask', description: 'Asks before edits, commands and anything outside the workspace' },
  { id: 'plan', name: 'Plan', description: 'Read-only tools only: the agent looks around and describes a plan' },
  { id: 'restricted', name: 'Read-only', description: 'No writes and no commands' },
  { id: 'yolo', name: 'Yolo', description: 'Approves edits and commands without asking (deny rules and protected paths still apply)' },
];

export type AcpModeId = 'interactive' | 'plan' | 'restricted' | 'yolo';

export function currentModeId(session: Session): AcpModeId {
  if (session.planMode) return 'plan';
  const mode = session.permissionMode;
  return mode === 'unrestricted' ? 'yolo' : mode;
}

export function modeState(session: Session): SessionModeState {
  return { currentModeId: currentModeId(session), availableModes: ACP_MODES };
}

/** Applies a mode; an unknown id throws an Error naming the modes there are. */
export function applyMode(session: Session, modeId: string): AcpModeId {
  switch (modeId) {
    case 'interactive':
    case 'restricted':
      session.planMode = false;
      session.setPermissionMode(modeId);
      break;
    case 'plan':
      session.setPermissionMode('interactive');
      session.planMode = true;
      break;
    case 'yolo':
      session.planMode = false;
      session.setPermissionMode('unrestricted');
      break;
    default:
      throw new Error(`unknown mode "${modeId}"; the modes are ${ACP_MODES.map((m) => m.id).join(', ')}`);
  }
  return currentModeId(session);
}
