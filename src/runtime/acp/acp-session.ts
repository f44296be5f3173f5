/**
 * One ACP session: our runtime Session plus the bridge to the client. Events become `session/update` notifications
 * (sent in order, all before the prompt's answer); permission and directory questions become
 * `session/request_permission`; `session/cancel` aborts the run and withdraws every question still open.
 */
import {
  RequestError,
  type AgentContext,
  type AvailableCommand,
  type ClientCapabilities,
  type Diff,
  type PermissionOption,
  type PromptResponse,
  type RequestPermissionOutcome,
  type SessionUpdate,
  type ToolCallContent,
  type ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import type { AgentEvent, PromptContext } from '../../protocol';
import type { RunHost } from '../agent/host';
import type { ActiveRun, Session, SessionOptions } from '../agent/session';
import { AcpFiles, type ClientFileAccess } from './client-files';
import { UpdateMapper } from './event-updates';
import { historyUpdates } from './history-replay';
import { currentModeId } from './modes';
import { directoryAnswer, directoryOptions, permissionAnswer, permissionOptions } from './permission-options';
import { promptToRun, UnsupportedContentError } from './prompt-content';
import { callArguments, proposedDiff } from './proposed-diff';
import { toolKind } from './tool-calls';

interface ProposedPlan {
  planId: string;
  text: string;
}

const ACP_COMMANDS: AvailableCommand[] = [{ name: 'compact', description: 'Summarise the conversation so far to free context' }];

const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'accept', name: 'Accept the plan and carry it out', kind: 'allow_once' },
  { optionId: 'revise', name: 'Keep planning', kind: 'reject_once' },
];

export type SessionFactory = (cwd: string, host: RunHost, files: NonNullable<SessionOptions['files']>) => Session;

/** JSON-RPC internal error (the SDK's helper puts the text in `data`; a client shows `message`). */
const INTERNAL_ERROR = -32603;

export class AcpSession {
  readonly session: Session;
  private readonly mapper: UpdateMapper;
  /** Notifications go out one after another; a prompt answers only once all of its updates are sent. */
  private sent: Promise<void> = Promise.resolve();
  private cancelled = false;
  /** Questions put to the client and not yet answered: withdrawn on cancel. */
  private readonly questions = new Set<AbortController>();
  /** The plan plan mode's run proposed (answered once the run has ended). */
  private proposedPlan: ProposedPlan | undefined;
  /** A session/prompt is being answered. */
  private prompting = false;
  /** Aborts a `/compact` in progress. */
  private compaction: AbortController | undefined;

  constructor(
    cwd: string,
    private readonly client: AgentContext,
    capabilities: ClientCapabilities,
    create: SessionFactory,
    private readonly log: (line: string) => void,
  ) {
    this.mapper = new UpdateMapper(cwd);
    const access = this.fileAccess(capabilities);
    const host: RunHost = { interactive: true, emit: (e) => this.onEvent(e), notice: (m) => log(m) };
    this.session = create(cwd, host, (root, emit) =>
      new AcpFiles(root, access, (w) => this.mapper.recordWrite(w), (rel) => emit({ type: 'file_modified', path: rel })),
    );
  }

  get id(): string {
    return this.session.id;
  }

  private fileAccess(caps: ClientCapabilities): ClientFileAccess {
    const access: ClientFileAccess = {};
    if (caps.fs?.readTextFile) {
      access.readText = async (path) => (await this.client.request('fs/read_text_file', { sessionId: this.id, path })).content;
    }
    if (caps.fs?.writeTextFile) {
      access.writeText = async (path, content) => {
        await this.client.request('fs/write_text_file', { sessionId: this.id, path, content });
      };
    }
    return access;
  }

  notify(update: SessionUpdate): void {
    this.sent = this.sent
      .then(() => this.client.notify('session/update', { sessionId: this.id, update }))
      .catch((e: unknown) => this.log(`could not send a session update: ${(e as Error).message}`));
  }

  /** Replays the saved conversation (session/load): every update is sent before the load answers. */
  async replayHistory(): Promise<void> {
    for (const u of historyUpdates(this.session.history, this.session.cwd)) this.notify(u);
    await this.sent;
  }

  private onEvent(event: AgentEvent): void {
    if (event.type === 'permission_request') {
      const toolCall = this.toolCallFor(event.toolCallId, event.tool, event.description, event.paths);
      const args = callArguments(this.session.history, event.toolCallId);
      const preview = proposedDiff(event.tool, args, this.session.cwd, (p) => this.session.files.readText(p));
      const ask = this.ask(toolCall, permissionOptions(event.suggestedRules), preview);
      void ask.then((outcome) => this.session.pending.answer(event.requestId, 'permission', permissionAnswer(outcome)));
      return;
    }
    if (event.type === 'directory_access_request') {
      const title = `Access ${event.path} (outside the workspace): ${event.reason}`;
      const toolCall = this.toolCallFor(event.toolCallId, 'read_file', title, [event.path]);
      const ask = this.ask(toolCall, directoryOptions());
      void ask.then((outcome) => this.session.pending.answer(event.requestId, 'directory', directoryAnswer(outcome)));
      return;
    }
    if (event.type === 'plan_proposed') this.proposedPlan = { planId: event.planId, text: event.text };
    for (const u of this.mapper.map(event)) this.notify(u);
  }

  /** The tool call a question is about, announced to the client first when it has not heard of it yet. */
  private toolCallFor(toolCallId: string, tool: string, title: string, paths?: string[]): ToolCallUpdate {
    const announce = this.mapper.announce(toolCallId, tool, title, paths);
    if (announce) this.notify(announce);
    return { toolCallId, title, kind: toolKind(tool), status: 'pending' };
  }

  /** Puts a question to the client; a failed request or a cancel counts as cancelled (a refusal). */
  private async ask(toolCall: ToolCallUpdate, options: PermissionOption[], preview?: Promise<Diff | undefined>): Promise<RequestPermissionOutcome> {
    const withdraw = new AbortController();
    this.questions.add(withdraw);
    try {
      const diff = await preview?.catch(() => undefined);
      if (diff) toolCall.content = [{ type: 'diff', ...diff }];
      await this.sent; // the client has the tool call before the question about it
      if (withdraw.signal.aborted) return { outcome: 'cancelled' }; // cancelled meanwhile: the question is not put
      const answer = await this.client.request(
        'session/request_permission',
        { sessionId: this.id, toolCall, options },
        { cancellationSignal: withdraw.signal, stopWaitingOnCancel: true },
      );
      return answer.outcome;
    } catch (e) {
      if (!withdraw.signal.aborted) this.log(`permission request failed: ${(e as Error).message}`);
      return { outcome: 'cancelled' };
    } finally {
      this.questions.delete(withdraw);
    }
  }

  /** session/prompt: runs it to the end; answers with the stop reason once every update is sent. */
  async prompt(blocks: Parameters<typeof promptToRun>[0], signal: AbortSignal): Promise<PromptResponse> {
    // A turn lasts past its run while a plan is offered: the next prompt waits for the answer to this one.
    if (this.prompting || this.session.running) {
      throw RequestError.invalidRequest(undefined, 'a prompt is still running in this session: wait for its answer or send session/cancel');
    }
    this.prompting = true;
    try {
      return await this.turn(blocks, signal);
    } finally {
      this.prompting = false;
    }
  }

  private async turn(blocks: Parameters<typeof promptToRun>[0], signal: AbortSignal): Promise<PromptResponse> {
    let message: string;
    let context: PromptContext[];
    try {
      ({ message, context } = promptToRun(blocks));
    } catch (e) {
      if (e instanceof UnsupportedContentError) throw RequestError.invalidParams(undefined, e.message);
      throw e;
    }
    this.cancelled = false;
    this.proposedPlan = undefined;
    if (context.length === 0 && message.trim() === '/compact') return this.compact();
    let run;
    try {
      run = this.session.startRun({ message, ...(context.length > 0 ? { context } : {}) });
    } catch (e) {
      throw new RequestError(INTERNAL_ERROR, (e as Error).message);
    }
    const onAbort = () => this.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    let outcome;
    try {
      outcome = await run.done;
      // Plan mode: the run ended with a proposed plan; accepted, the plan is carried out in the same prompt turn.
      for (let plan = this.takeProposedPlan(); plan && !this.cancelled; plan = this.takeProposedPlan()) {
        const next = await this.offerPlan(plan);
        if (!next) break;
        outcome = await next.done;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    await this.sent;
    if (this.cancelled || outcome.status === 'aborted') return { stopReason: 'cancelled' };
    if (outcome.status === 'error') {
      throw new RequestError(INTERNAL_ERROR, outcome.error?.message ?? 'the run failed', { code: outcome.error?.code });
    }
    if (outcome.status === 'stopped' && outcome.stoppedReason === 'max_iterations') return { stopReason: 'max_turn_requests' };
    return { stopReason: 'end_turn' };
  }

  /** The `/compact` command: summarises the conversation so far (context_compacted shows the result). */
  private async compact(): Promise<PromptResponse> {
    this.compaction = new AbortController();
    try {
      const compacted = await this.session.compactNow(this.compaction.signal);
      if (!compacted) this.notify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Nothing to compact yet.' } });
    } catch (e) {
      if (this.cancelled) return { stopReason: 'cancelled' };
      throw new RequestError(INTERNAL_ERROR, `compaction failed: ${(e as Error).message}`);
    } finally {
      this.compaction = undefined;
    }
    await this.sent;
    return { stopReason: this.cancelled ? 'cancelled' : 'end_turn' };
  }

  /** Tells the client the commands a prompt may start with (sent once the session exists). */
  announceCommands(): void {
    this.notify({ sessionUpdate: 'available_commands_update', availableCommands: ACP_COMMANDS });
  }

  private takeProposedPlan(): ProposedPlan | undefined {
    const plan = this.proposedPlan;
    this.proposedPlan = undefined;
    return plan;
  }

  /**
   * Asks the client whether to carry out a proposed plan (a `switch_mode` tool call showing the plan). Accepted: plan
   * mode ends (current_mode_update) and the run executing the plan starts; otherwise the plan waits for revisions.
   */
  private async offerPlan(plan: ProposedPlan): Promise<ActiveRun | undefined> {
    const toolCallId = `${plan.planId}_review`;
    const content: ToolCallContent[] = [{ type: 'content', content: { type: 'text', text: plan.text } }];
    this.notify({ sessionUpdate: 'tool_call', toolCallId, title: 'Carry out the plan?', kind: 'switch_mode', status: 'pending', content });
    const outcome = await this.ask({ toolCallId, title: 'Carry out the plan?', kind: 'switch_mode', status: 'pending', content }, PLAN_OPTIONS);
    const accepted = outcome.outcome === 'selected' && outcome.optionId === 'accept' && !this.cancelled;
    this.notify({ sessionUpdate: 'tool_call_update', toolCallId, status: accepted ? 'completed' : 'failed' });
    if (!accepted) return undefined;
    try {
      const run = this.session.respondToPlan(plan.planId, 'accept');
      this.notify({ sessionUpdate: 'current_mode_update', currentModeId: currentModeId(this.session) });
      return run;
    } catch (e) {
      this.log(`could not carry out plan ${plan.planId}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** session/cancel: the run aborts (its pending questions settle as cancelled) and open questions are withdrawn. */
  cancel(): void {
    this.cancelled = true;
    if (this.session.running) this.session.abort();
    this.compaction?.abort();
    for (const q of this.questions) q.abort();
  }

  end(): void {
    this.cancel();
    this.session.end();
  }
}
