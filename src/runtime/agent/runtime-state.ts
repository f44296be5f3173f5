import type { RuntimeState } from '../../protocol/methods';
import { PERMISSION_CHOICES_WITHOUT_RULE, type HistoryMessage, type PermissionChoice, type PermissionMode } from '../../protocol/records';
import { summarizeBatch, type ChangeBatchStore, type StoredBatch } from '../changes';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { ProposedPlan } from './loops/plan-mode';
import type { PendingRequests } from './pending-requests';
import type { ActiveRun } from './session-options';

/** What `getState` reports of a session. */
export interface StateSource {
  readonly id: string;
  readonly cwd: string;
  readonly running: ActiveRun | undefined;
  readonly permissionMode: PermissionMode;
  readonly planMode: boolean;
  readonly store: ChangeBatchStore;
  readonly pending: PendingRequests;
  readonly history: HistoryMessage[];
  readonly sandbox: CommandSandbox;
  readonly proposedPlan: ProposedPlan | undefined;
  selected(): { provider: string; model: string };
}

const summarizeOrNull = (b: StoredBatch | null) => (b ? summarizeBatch(b) : null);

/** The session's state (`getState`): run, model, modes, the batch and the requests waiting for the host, the plan. */
export function describeState(session: StateSource, yolo: RuntimeState['yolo']): RuntimeState {
  const sel = session.selected();
  const active = session.running;
  return {
    sessionId: session.id,
    cwd: session.cwd,
    status: active ? 'running' : 'idle',
    ...(active ? { runId: active.runId } : {}),
    provider: sel.provider,
    model: sel.model,
    permissionMode: session.permissionMode,
    planMode: session.planMode,
    yolo,
    pendingBatch: summarizeOrNull(session.store.pending() ?? session.store.open()),
    pendingPermissions: session.pending.list('permission').map((p) => ({
      requestId: p.requestId,
      tool: String(p.info.tool),
      description: String(p.info.description),
      choices: Array.isArray(p.info.choices) ? (p.info.choices as PermissionChoice[]) : [...PERMISSION_CHOICES_WITHOUT_RULE],
      acknowledged: p.acknowledged,
    })),
    pendingDirectoryAccess: session.pending.list('directory').map((p) => ({
      requestId: p.requestId,
      path: String(p.info.path),
      reason: String(p.info.reason),
      acknowledged: p.acknowledged,
    })),
    messageCount: session.history.length,
    sandbox: session.sandbox.state(),
    ...(session.proposedPlan
      ? { proposedPlan: { planId: session.proposedPlan.planId, runId: session.proposedPlan.runId, steps: session.proposedPlan.steps.map((s) => ({ ...s, status: 'pending' as const })) } }
      : {}),
  };
}
