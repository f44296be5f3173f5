/**
 * A session's hooks (README "Hooks"): shell hooks from the config files and `addHook`, and the filesystem hooks
 * `~/.agentcli/hooks/pre-prompt` and `post-prompt`. Notification hooks run one after another in the background;
 * only `before_tool` and `pre-prompt` are awaited. With no shell hook configured, events cost one lookup.
 * Every hook run is reported as a `hook` event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { picomatch } from '../workspace/glob';
import { DEFAULT_HOOK_TIMEOUT_MS, TOOL_HOOK_EVENTS, type HookDefinition, type HookEventName, type HookSource } from '../../protocol/hooks';
import type { EventDraft } from '../agent/host';
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { HookCommandSettings, HooksSettings } from './config';
import { NotificationTracker, type HookNotification } from './notifications';
import { runHookCommand, shellQuote, type HookRunResult } from './run-hook';

/** A before-tool hook that exits with this code blocks the tool; its stderr is the reason the model gets. */
export const BLOCK_EXIT_CODE = 2;

export type FilesystemHookName = 'pre-prompt' | 'post-prompt';

export interface SessionHooksOptions {
  cwd: string;
  home: string;
  /** The `hooks` of the current config (it changes with `configure`). */
  configured(): HooksSettings;
  sandbox(): CommandSandbox;
  sessionId(): string;
  emit(draft: EventDraft): void;
  /** A hook that failed (not the one that blocked on purpose), for a terminal user. */
  notice?(message: string): void;
}

interface ResolvedHook extends HookCommandSettings {
  source: HookSource;
}

export type PromptCheck = { ok: true; prompt: string; rewritten: boolean } | { ok: false; reason: string };

const matchers = new Map<string, (name: string) => boolean>();
function matches(glob: string, toolName: string): boolean {
  let test = matchers.get(glob);
  if (!test) {
    test = picomatch()(glob);
    matchers.set(glob, test);
  }
  return test(toolName);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

export class SessionHooks {
  private readonly added: HookDefinition[] = [];
  private readonly tracker = new NotificationTracker();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly opts: SessionHooksOptions) {}

  /** `addHook`: a shell hook for the rest of the session; answers how many the event now has. */
  add(definition: HookDefinition): number {
    this.added.push(definition);
    return this.hooksFor(definition.event).length;
  }

  private hooksFor(name: HookEventName, toolName?: string): ResolvedHook[] {
    const configured = this.opts.configured()[name] ?? [];
    const all: ResolvedHook[] = [
      ...configured.map((h) => ({ ...h, source: 'config' as const })),
      ...this.added.filter((h) => h.event === name).map((h) => ({ command: h.command, ...(h.matcher ? { matcher: h.matcher } : {}), ...(h.timeoutMs ? { timeoutMs: h.timeoutMs } : {}), source: 'session' as const })),
    ];
    if (toolName === undefined || !TOOL_HOOK_EVENTS.includes(name)) return all;
    return all.filter((h) => h.matcher === undefined || matches(h.matcher, toolName));
  }

  private any(): boolean {
    if (this.added.length > 0) return true;
    for (const list of Object.values(this.opts.configured())) if (list && list.length > 0) return true;
    return false;
  }

  /** Every event the session emits passes here: the notification it raises runs its hooks in the background. */
  observe(draft: EventDraft): void {
    if (draft.type === 'hook' || !this.any()) return;
    const n = this.tracker.fromEvent(draft);
    if (n) this.notify(n, 'runId' in draft ? draft.runId : undefined);
  }

  /** Queues the notification's hooks (not awaited by the run). */
  notify(n: HookNotification, runId?: string): void {
    const hooks = this.hooksFor(n.name, n.toolName);
    if (hooks.length === 0) return;
    const input = this.payload(n);
    for (const hook of hooks) {
      this.enqueue(async () => {
        const result = await this.run(hook.command, input, hook.timeoutMs, n.name);
        this.report(n.name, hook.source, hook.command, result, false, runId);
      });
    }
  }

  /** `session_start`, raised when the session is created. */
  sessionStarted(): void {
    if (this.any()) this.notify({ name: 'session_start', fields: {} });
  }

  /**
   * Runs the `before_tool` hooks of a call (awaited, one after another). Answers the reason when one exits with
   * BLOCK_EXIT_CODE; other failures are reported and do not block.
   */
  async beforeTool(call: { runId: string; turnId: string; toolCallId: string; toolName: string; args: unknown }, signal: AbortSignal): Promise<string | undefined> {
    if (!this.any()) return undefined;
    const hooks = this.hooksFor('before_tool', call.toolName);
    if (hooks.length === 0) return undefined;
    const input = this.payload({ name: 'before_tool', fields: call });
    for (const hook of hooks) {
      const result = await this.run(hook.command, input, hook.timeoutMs, 'before_tool', signal);
      const blocked = result.exitCode === BLOCK_EXIT_CODE;
      this.report('before_tool', hook.source, hook.command, result, blocked, call.runId);
      if (blocked) {
        const why = result.stderr.trim() || `a before_tool hook (${hook.command}) exited with ${BLOCK_EXIT_CODE} without saying why`;
        return `blocked by a before_tool hook: ${why}`;
      }
    }
    return undefined;
  }

  /** The `pre-prompt` filesystem hook: blocks the prompt (non-zero exit or a hook that cannot run) or rewrites it. */
  async prePrompt(prompt: string, runId: string, signal: AbortSignal): Promise<PromptCheck> {
    const file = this.filesystemHook('pre-prompt');
    if (!file) return { ok: true, prompt, rewritten: false };
    const result = 'error' in file ? { exitCode: null, stdout: '', stderr: '', durationMs: 0, error: file.error } : await this.run(shellQuote(file.path), prompt, undefined, 'pre-prompt', signal);
    const blocked = result.exitCode !== 0;
    this.report('pre-prompt', 'filesystem', this.filesystemPath('pre-prompt'), result, blocked, runId);
    if (result.error !== undefined) {
      return { ok: false, reason: `the pre-prompt hook ${this.filesystemPath('pre-prompt')} ${result.error}; the prompt was not sent` };
    }
    if (blocked) {
      return { ok: false, reason: result.stderr.trim() || `the pre-prompt hook ${this.filesystemPath('pre-prompt')} exited with ${result.exitCode} and blocked the prompt` };
    }
    const replaced = result.stdout.replace(/\r?\n$/, '');
    return replaced.trim() === '' ? { ok: true, prompt, rewritten: false } : { ok: true, prompt: replaced, rewritten: true };
  }

  /** The `post-prompt` filesystem hook gets the final answer (in the background). */
  postPrompt(answer: string, runId: string): void {
    this.enqueue(async () => {
      const file = this.filesystemHook('post-prompt');
      if (!file) return;
      const result = 'error' in file ? { exitCode: null, stdout: '', stderr: '', durationMs: 0, error: file.error } : await this.run(shellQuote(file.path), answer, undefined, 'post-prompt');
      this.report('post-prompt', 'filesystem', this.filesystemPath('post-prompt'), result, false, runId);
    });
  }

  /** Resolves when the queued hooks have run (each is bounded by its timeout): before the process exits. */
  settled(): Promise<void> {
    return this.queue;
  }

  private enqueue(task: () => Promise<void>): void {
    this.queue = this.queue.then(task).catch(() => undefined);
  }

  private payload(n: HookNotification): string {
    return `${JSON.stringify({ event: n.name, sessionId: this.opts.sessionId(), cwd: this.opts.cwd, ...n.fields })}\n`;
  }

  private run(command: string, input: string, timeoutMs: number | undefined, name: string, signal?: AbortSignal): Promise<HookRunResult> {
    return runHookCommand({
      userProgram: name === 'pre-prompt' || name === 'post-prompt',
      command,
      input,
      cwd: this.opts.cwd,
      timeoutMs: timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      sandbox: this.opts.sandbox(),
      env: { AGENTCLI_HOOK_EVENT: name, AGENTCLI_SESSION_ID: this.opts.sessionId(), AGENTCLI_PROJECT_DIR: this.opts.cwd },
      ...(signal ? { signal } : {}),
    });
  }

  private report(name: HookEventName | FilesystemHookName, source: HookSource, command: string, r: HookRunResult, blocked: boolean, runId?: string): void {
    this.opts.emit({
      type: 'hook',
      ...(runId ? { runId } : {}),
      name,
      source,
      command,
      exitCode: r.exitCode,
      durationMs: r.durationMs,
      blocked,
      ...(r.error !== undefined ? { error: r.error } : {}),
    });
    if (blocked) return;
    if (r.error !== undefined) this.opts.notice?.(`${name} hook ${command} ${r.error}`);
    else if (r.exitCode !== 0) this.opts.notice?.(`${name} hook ${command} exited with ${r.exitCode}${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''}`);
  }

  private filesystemPath(name: FilesystemHookName): string {
    return path.join(this.opts.home, '.agentcli', 'hooks', name);
  }

  /** The hook file when there is one: its path, or why it cannot run (not a file, not executable). */
  private filesystemHook(name: FilesystemHookName): { path: string } | { error: string } | undefined {
    const file = this.filesystemPath(name);
    // Checked before every prompt's first request, and usually missing. Synchronous: the first asynchronous fs call
    // starts libuv's thread pool, and fs.promises would load node:fs/promises (and readline).
    const info = fs.statSync(file, { throwIfNoEntry: false });
    if (info === undefined) return undefined;
    if (!info.isFile()) return { error: 'is not a file: make it an executable script, or remove it' };
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      return { error: `is not executable: make it executable (chmod +x ${shellQuote(file)}) or remove it` };
    }
    return { path: file };
  }
}
