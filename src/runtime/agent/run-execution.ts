import type { HistoryMessage, PermissionMode } from '../../protocol/records';
import type { ChangeBatchStore } from '../changes';
import type { Config } from '../config/schema';
import { reportingRateLimits } from '../hooks/rate-limit-events';
import type { SessionHooks } from '../hooks/session-hooks';
import type { DirectoryGrants } from '../permissions/directory-grants';
import type { PermissionPolicy } from '../permissions/policy';
import type { ModelProvider } from '../providers/types';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { SecretMasker } from '../secrets/masker';
import type { ToolDefinition } from '../tools/types';
import type { WorkspaceFiles } from '../workspace/types';
import type { ContextCompactor } from './context-compaction';
import { toEventError } from './errors';
import type { EventDraft } from './host';
import { runLoop } from './loops';
import { PLAN_MODE_PROMPT, planModeSpecs, submitPlanTool, type ProposedPlan } from './loops/plan-mode';
import type { PendingRequests } from './pending-requests';
import type { RunOutcome, RunRequest } from './react-loop';
import { finalizeRunBatch } from './session-changes';
import type { SessionOptions } from './session-options';
import type { SessionTools } from './session-tools';
import { buildSystemPrompt } from './system-prompt';

/** What a run takes from its session; modes, sandbox and secrets are read at each tool call. */
export interface RunSession {
  readonly cwd: string;
  readonly files: WorkspaceFiles;
  readonly policy: PermissionPolicy;
  readonly grants: DirectoryGrants;
  readonly pending: PendingRequests;
  readonly store: ChangeBatchStore;
  readonly compactor: ContextCompactor;
  readonly hooks: SessionHooks;
  readonly outputDir: string;
  readonly toolset: SessionTools;
  readonly history: HistoryMessage[];
  readonly config: Config;
  readonly planMode: boolean;
  readonly permissionMode: PermissionMode;
  readonly sandbox: CommandSandbox;
  readonly secrets: SecretMasker;
  readonly extraTools: ToolDefinition[];
  readonly toolFilter: ((name: string) => boolean) | undefined;
  proposedPlan: ProposedPlan | undefined;
  emit(draft: EventDraft): void;
  newProvider(): ModelProvider;
}

/**
 * One run from `agent_start` to `agent_end`: the pre-prompt hook, the run loop with the session's tools and modes, the
 * change batch it leaves (batch mode) and the post-prompt hook. A failure ends the run with an `error` event.
 */
export async function executeRun(session: RunSession, opts: SessionOptions, req: RunRequest, controller: AbortController, acceptedPlan?: ProposedPlan): Promise<RunOutcome> {
  session.emit({ type: 'agent_start', runId: req.runId, prompt: req.message });
  const checked = await session.hooks.prePrompt(req.message, req.runId, controller.signal);
  if (!checked.ok) return blockedByHook(session, req.runId, checked.reason, controller.signal);
  if (checked.rewritten) req = { ...req, message: checked.prompt };
  if (opts.batchMode) session.store.beginRun(req.runId);
  session.compactor.newPrompt();
  await session.store.recover(); // no tool of the run sees a batch a killed runtime left half applied
  await session.toolset.firstConnections(); // servers just started (agentcli -p) join this run
  let outcome: RunOutcome;
  try {
    const keep = session.toolFilter ?? (() => true);
    const { tools, specs: allSpecs } = session.toolset.forRun(keep, session.extraTools);
    // Plan mode (read when the run starts): read-only tools and submit_plan only, until a plan is accepted.
    const planMode = session.planMode && !acceptedPlan;
    if (planMode) tools.set('submit_plan', submitPlanTool(() => req.runId, (d) => session.emit(d), (p) => (session.proposedPlan = p)));
    outcome = await runLoop(req, {
      history: session.history,
      systemPrompt: buildSystemPrompt({
        cwd: session.cwd,
        batchMode: opts.batchMode,
        ...(opts.systemPrompt !== undefined ? { systemPrompt: opts.systemPrompt } : {}),
        appendSystemPrompt: [...(opts.appendSystemPrompt ?? []), ...(planMode ? [PLAN_MODE_PROMPT] : [])],
        skills: opts.skills ?? [],
        ...(opts.home ? { home: opts.home } : {}),
      }),
      provider: reportingRateLimits(session.newProvider(), req.runId, (d) => session.emit(d)),
      toolSpecs: planMode ? planModeSpecs(allSpecs, tools) : allSpecs,
      tools: {
        cwd: session.cwd,
        files: session.files,
        tools,
        policy: session.policy,
        grants: session.grants,
        pending: session.pending,
        host: opts.host,
        emit: (d) => session.emit(d),
        outputDir: session.outputDir,
        projectConfigFile: opts.projectConfigFile,
        beforeTool: (call, signal) => session.hooks.beforeTool(call, signal),
        batchMode: opts.batchMode || opts.writesReviewedLater === true,
        // Read at each tool call, so mode changes during a run apply to its next tool call.
        get planMode() {
          return session.planMode;
        },
        get permissionMode() {
          return session.permissionMode;
        },
        get sandbox() {
          return session.sandbox;
        },
        get secrets() {
          return session.secrets;
        },
      },
      pending: session.pending,
      emit: (d) => session.emit(d),
      signal: controller.signal,
      compactor: session.compactor,
    }, {
      loopType: opts.loopType ?? session.config.loopType,
      reflexionMaxRetries: session.config.reflexion.maxRetries,
      planMode,
      ...(acceptedPlan ? { acceptedPlan } : {}),
    });
  } catch (e) {
    const { code, message, remedy, fix } = toEventError(e);
    session.emit({ type: 'error', runId: req.runId, code, error: message, ...(remedy ? { remedy } : {}), ...(fix ? { fix } : {}) });
    outcome = { status: 'error', text: '', error: { code, message } };
  }
  if (opts.batchMode) finalizeRunBatch(session.store, req.runId, (d) => session.emit(d));
  session.emit({
    type: 'agent_end',
    runId: req.runId,
    status: outcome.status,
    text: outcome.text,
    ...(outcome.stoppedReason ? { stoppedReason: outcome.stoppedReason } : {}),
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  if (outcome.status === 'completed' || outcome.status === 'stopped') session.hooks.postPrompt(outcome.text, req.runId);
  return outcome;
}

/** The pre-prompt hook refused the prompt: nothing is sent, and the user sees its reason (an abort meanwhile wins). */
function blockedByHook(session: RunSession, runId: string, reason: string, signal: AbortSignal): RunOutcome {
  if (signal.aborted) {
    session.emit({ type: 'agent_end', runId, status: 'aborted', text: '' });
    return { status: 'aborted', text: '' };
  }
  const error = { code: 'hook_blocked' as const, message: reason };
  session.emit({ type: 'error', runId, code: error.code, error: reason, remedy: 'change the prompt, or the pre-prompt hook in ~/.agentcli/hooks' });
  session.emit({ type: 'agent_end', runId, status: 'error', text: '', error });
  return { status: 'error', text: '', error };
}
