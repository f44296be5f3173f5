/**
 * The extension's copy of what the chat panel shows, kept independent of the webview (which is destroyed when
 * hidden) and of the runtime process (which may crash): the transcript (same reducer as the webview), the panel
 * state, pending requests, the pending change batch (summaries; its contents are in change-contents.ts), and context chips.
 * The `init` snapshot is built from it. No `vscode` import.
 */
import { mergeBatchUpdate } from '../../protocol/change-batch';
import type { AgentEvent } from '../../protocol/events';
import type { ErrorFix } from '../../protocol/errors';
import type { RuntimeState } from '../../protocol/methods';
import type { ChangeBatch, ChangeResult, PermissionChoice } from '../../protocol/records';
import type { ContextChip, ContextUsage, PanelState, ProposedPlanInfo, RuntimeStatus, ToWebviewInput, TranscriptItem } from '../../shared/chat/messages';
import type { TranscriptModel } from '../../shared/chat/model/transcriptReducer';
import { shownModel } from '../models/model-items';

type Reducer = typeof import('../../shared/chat/model/transcriptReducer');
let reducerModule: Reducer | undefined;
/** The webview's reducer (shared code), loaded on first use so activation stays cheap. */
function reducer(): Reducer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  reducerModule ??= require('../../shared/chat/model/transcriptReducer') as Reducer;
  return reducerModule;
}

/** Items in `init`: the newest ones, enough to fill a tall panel; the panel asks for older pages as it scrolls up. */
const INIT_TAIL_ITEMS = 60;
/** Items per `olderItems` answer. */
const OLDER_PAGE_ITEMS = 200;

interface PendingRequest {
  requestId: string;
  acknowledged: boolean;
}
export type PendingPermissionEntry = PendingRequest & { tool: string; description: string; command?: string; paths?: string[]; choices: PermissionChoice[] };
export type PendingDirectoryEntry = PendingRequest & { path: string; reason: string };

export class SessionStore {
  private model: TranscriptModel | undefined;
  state: PanelState = {
    provider: '',
    model: '',
    permissionMode: 'interactive',
    planMode: false,
    yolo: { active: false },
    running: false,
  };
  runtime: RuntimeStatus = { status: 'starting' };
  batch: ChangeBatch | null = null;
  /** The plan waiting for Accept or Revise (plan mode). */
  proposedPlan: ProposedPlanInfo | null = null;
  readonly permissions = new Map<string, PendingPermissionEntry>();
  readonly directories = new Map<string, PendingDirectoryEntry>();
  context: ContextChip[] = [];
  contextUsage: ContextUsage | null = null;

  get transcript(): TranscriptModel {
    this.model ??= reducer().createTranscript();
    return this.model;
  }

  /** Applies one runtime event; returns true when the panel state (running, batch) changed. */
  apply(event: AgentEvent): boolean {
    reducer().applyEvent(this.transcript, event);
    switch (event.type) {
      case 'agent_start':
        this.state = { ...this.state, running: true };
        return true;
      case 'agent_end':
        // an aborted or finished run leaves no pending prompt behind
        this.permissions.clear();
        this.directories.clear();
        this.state = { ...this.state, running: false };
        return true;
      case 'permission_request':
        this.permissions.set(event.requestId, {
          requestId: event.requestId,
          acknowledged: false,
          tool: event.tool,
          description: event.description,
          command: event.command,
          paths: event.paths,
          choices: event.choices,
        });
        return false;
      case 'permission_resolved':
        this.permissions.delete(event.requestId);
        return false;
      case 'directory_access_request':
        this.directories.set(event.requestId, { requestId: event.requestId, acknowledged: false, path: event.path, reason: event.reason });
        return false;
      case 'directory_access_resolved':
        this.directories.delete(event.requestId);
        return false;
      case 'change_batch_updated':
        this.batch = mergeBatchUpdate(this.batch, event);
        return false;
      case 'change_batch_ready':
        this.batch = event.batch;
        return false;
      case 'change_batch_decided':
        if (this.batch?.id === event.batchId) this.batch = null;
        return false;
      case 'plan_proposed':
        this.proposedPlan = { planId: event.planId, runId: event.runId, steps: event.steps };
        return false;
      default:
        return false;
    }
  }

  addPrompt(promptId: string, text: string, context: ContextChip[]): void {
    reducer().addUserPrompt(this.transcript, { promptId, text, context });
  }

  promptFailed(promptId: string, message: string, remedy?: string, fix?: ErrorFix): void {
    reducer().markPromptFailed(this.transcript, promptId);
    reducer().addError(this.transcript, { message, remedy, fix });
  }

  addError(message: string, remedy?: string): void {
    reducer().addError(this.transcript, { message, remedy });
  }

  addNotice(text: string): void {
    reducer().addNotice(this.transcript, text);
  }

  /** A saved session was attached: its transcript replaces the conversation; its undecided batch is the pending one. */
  loadSaved(items: readonly TranscriptItem[], batch: ChangeBatch | null): void {
    // A prompt sent while the chat was being restored (the box is usable at once) stays, after the restored items.
    const sentMeanwhile = this.transcript.items.filter((i) => i.kind === 'user' && i.promptId !== undefined && i.runId === undefined && i.failed !== true);
    reducer().replaceTranscript(this.transcript, [...items, ...sentMeanwhile]);
    this.batch = batch;
    this.proposedPlan = null;
    this.permissions.clear();
    this.directories.clear();
    this.state = { ...this.state, running: false };
  }

  /** The runtime has a conversation: a prompt of it ran (prompts still waiting to be sent do not count). */
  get conversationStarted(): boolean {
    return this.transcript.items.some((i) => (i.kind === 'user' && i.runId !== undefined) || i.kind === 'assistant');
  }

  /** The conversation has something in it (the compact command applies). */
  get hasConversation(): boolean {
    return this.transcript.items.some((i) => i.kind === 'user' || i.kind === 'assistant');
  }

  mentionsRefused(promptId: string, paths: string[]): void {
    reducer().markMentionsRefused(this.transcript, promptId, paths);
  }

  /** The user answered the proposed plan (the runtime accepted the answer). */
  planAnswered(planId: string, decision: 'accept' | 'revise'): void {
    reducer().answerPlanItem(this.transcript, planId, decision);
    if (this.proposedPlan?.planId === planId) this.proposedPlan = null;
    if (decision === 'accept') this.state = { ...this.state, planMode: false }; // accepting ends plan mode
  }

  batchDecided(batchId: string, results: ChangeResult[]): void {
    reducer().applyBatchResult(this.transcript, batchId, results);
    if (this.batch?.id === batchId) this.batch = null;
  }

  newChat(): void {
    reducer().clearConversation(this.transcript);
    this.proposedPlan = null;
    this.state = { ...this.state, running: false };
  }

  /** After a (re)start: the runtime's own state is the truth for modes, model and what is pending. */
  adoptRuntimeState(s: RuntimeState): void {
    this.state = {
      provider: s.provider,
      model: shownModel(s.model),
      permissionMode: s.permissionMode,
      planMode: s.planMode,
      yolo: s.yolo,
      sandbox: s.sandbox,
      running: s.status === 'running',
    };
    const keepAck = (id: string, map: Map<string, PendingRequest>) => map.get(id)?.acknowledged ?? false;
    const perms = new Map(this.permissions);
    this.permissions.clear();
    for (const p of s.pendingPermissions) {
      const known = perms.get(p.requestId);
      this.permissions.set(p.requestId, { ...(known ?? {}), ...p, acknowledged: p.acknowledged || keepAck(p.requestId, perms) });
    }
    const dirs = new Map(this.directories);
    this.directories.clear();
    for (const d of s.pendingDirectoryAccess) this.directories.set(d.requestId, { ...d, acknowledged: d.acknowledged || keepAck(d.requestId, dirs) });
    // A batch the new process does not know is kept: the user's pending review must not vanish with a crash.
    if (s.pendingBatch) this.batch = s.pendingBatch;
    this.proposedPlan = s.proposedPlan ?? null;
    reducer().mergePending(this.transcript, { permissions: [], directories: [], batch: null, plan: this.proposedPlan });
  }

  /** The runtime process is gone: nothing it had pending can still be answered, except the batch we hold. */
  runtimeLost(): void {
    this.permissions.clear();
    this.directories.clear();
    this.state = { ...this.state, running: false };
  }

  addContext(chip: ContextChip): void {
    this.context = [...this.context.filter((c) => c.id !== chip.id), chip];
  }

  removeContext(chipId: string): void {
    this.context = this.context.filter((c) => c.id !== chipId);
  }

  /** The items before `beforeId` for the panel scrolling up; none when the panel's list no longer matches this one. */
  olderItems(beforeId: string): Extract<ToWebviewInput, { type: 'olderItems' }> {
    const end = this.transcript.index.get(beforeId) ?? 0;
    const start = Math.max(0, end - OLDER_PAGE_ITEMS);
    return { type: 'olderItems', beforeId, items: this.transcript.items.slice(start, end), olderCount: start };
  }

  initMessage(): ToWebviewInput {
    const batch = this.batch;
    const all = this.transcript.items;
    const from = Math.max(0, all.length - INIT_TAIL_ITEMS);
    return {
      type: 'init',
      items: from === 0 ? all : all.slice(from),
      olderCount: from,
      state: this.state,
      runtime: this.runtime,
      pendingPermissions: [...this.permissions.values()].map((p) => ({ requestId: p.requestId, tool: p.tool, description: p.description, choices: p.choices, acknowledged: p.acknowledged })),
      pendingDirectoryAccess: [...this.directories.values()].map((d) => ({ requestId: d.requestId, path: d.path, reason: d.reason, acknowledged: d.acknowledged })),
      pendingBatch: batch ? { batchId: batch.id, runId: batch.runId, status: batch.status, files: reducer().toBatchFiles(batch) } : null,
      proposedPlan: this.proposedPlan,
      context: this.context,
      contextUsage: this.contextUsage,
    };
  }
}
