/**
 * Owns the runtime subprocess through the SDK client: lazy start, crash detection with the reason and the last
 * stderr lines, automatic restart with backoff (or on the user's click), and a `prepare` hook that re-applies
 * settings and editor tools to every fresh process before anyone uses it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent } from '../../protocol/events';
import type { RuntimeState } from '../../protocol/methods';
import type { RuntimeClient } from '../../sdk/client';
import type { RuntimeStatus } from '../../shared/chat/messages';
import type { Output } from '../output';
import { RestartSchedule } from './backoff';

export interface RuntimeHostOptions {
  extensionPath: string;
  output: Output;
  /** Runs on every fresh process before it counts as ready (configure, editor tools). Errors are logged, not fatal. */
  prepare: (client: RuntimeClient) => Promise<void>;
}

type Listener<T> = (value: T) => void;

export class RuntimeHost implements vscode.Disposable {
  private client: RuntimeClient | undefined;
  private starting: Promise<RuntimeClient> | undefined;
  private startedAt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private readonly schedule = new RestartSchedule();
  private currentStatus: RuntimeStatus = { status: 'starting' };
  private readonly eventListeners = new Set<Listener<AgentEvent>>();
  private readonly statusListeners = new Set<Listener<RuntimeStatus>>();
  private readonly readyListeners = new Set<Listener<{ state: RuntimeState; restarted: boolean }>>();
  private everStarted = false;

  constructor(private readonly options: RuntimeHostOptions) {}

  get status(): RuntimeStatus {
    return this.currentStatus;
  }

  /** The running client, if any (no start is triggered). */
  get running(): RuntimeClient | undefined {
    return this.client;
  }

  onEvent(listener: Listener<AgentEvent>): vscode.Disposable {
    this.eventListeners.add(listener);
    return new vscode.Disposable(() => this.eventListeners.delete(listener));
  }

  onStatus(listener: Listener<RuntimeStatus>): vscode.Disposable {
    this.statusListeners.add(listener);
    return new vscode.Disposable(() => this.statusListeners.delete(listener));
  }

  /** After each successful (re)start, with the runtime's state (getState). */
  onReady(listener: Listener<{ state: RuntimeState; restarted: boolean }>): vscode.Disposable {
    this.readyListeners.add(listener);
    return new vscode.Disposable(() => this.readyListeners.delete(listener));
  }

  /** Starts the runtime if needed and returns the ready client. */
  ensureStarted(): Promise<RuntimeClient> {
    if (this.client) return Promise.resolve(this.client);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** The user's "Restart" click: cancels a scheduled attempt, starts now, fresh backoff series. */
  async restart(): Promise<void> {
    this.schedule.reset();
    this.clearTimer();
    const old = this.client;
    this.client = undefined;
    if (old) await this.stopQuietly(old);
    await this.ensureStarted();
  }

  private async start(): Promise<RuntimeClient> {
    if (this.disposed) throw new Error('The extension is shutting down.');
    const restarted = this.everStarted;
    this.setStatus(restarted ? { status: 'restarting' } : { status: 'starting' });
    const { output } = this.options;
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!cwd) {
      const reason = 'No folder is open. Open a folder (File > Open Folder) so the agent has a workspace to work in.';
      this.setStatus({ status: 'crashed', reason });
      throw new Error(reason);
    }
    // loaded on first start, not at activation (the SDK brings the protocol schemas with it)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { RuntimeClient: Client } = require('../../sdk/client') as typeof import('../../sdk/client');
    const client = new Client({
      cwd,
      cliPath: this.cliPath(),
      nodePath: process.execPath,
      // An untrusted folder's .agentcli/config.json could point base URLs (and so the user's keys) elsewhere or allow
      // commands; it is read only once the workspace is trusted (the app restarts the runtime on that grant).
      projectConfig: vscode.workspace.isTrusted,
      env: this.runtimeEnv(),
      debug: output.debug,
      onTrace: (dir, msg) => output.trace(dir, msg),
      onStderr: (line) => output.stderr(line),
    });
    client.onEvent((event) => {
      for (const l of this.eventListeners) l(event);
    });
    client.onExit((exit) => this.handleExit(client, exit));
    try {
      const init = await client.start();
      output.info(`runtime ${init.runtimeVersion} started (protocol ${init.protocolVersion}, ${init.provider}/${init.model}, cwd ${cwd})`);
      this.client = client;
      this.startedAt = Date.now();
      this.everStarted = true;
      await this.options.prepare(client).catch((e: unknown) => output.error(`preparing the runtime failed: ${text(e)}`));
      const state = await client.getState();
      this.setStatus({ status: 'ready' });
      for (const l of this.readyListeners) l({ state, restarted });
      return client;
    } catch (e) {
      this.client = undefined;
      await this.stopQuietly(client);
      const reason = `The runtime could not start: ${text(e)}`;
      output.error(reason);
      this.setStatus({ status: 'crashed', reason });
      throw new Error(reason, { cause: e });
    }
  }

  private handleExit(client: RuntimeClient, exit: { code: number | null; signal: string | null; stderrTail: string[] }): void {
    if (this.client !== client || this.disposed) return; // a stop we asked for, or an old process
    this.client = undefined;
    const how = exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code ?? 'unknown'}`;
    const reason = `The runtime stopped unexpectedly (${how}).`;
    const stderrTail = exit.stderrTail.slice(-200);
    this.options.output.error(`${reason}${stderrTail.length ? ` Last stderr lines:\n${stderrTail.join('\n')}` : ''}`);
    this.setStatus({ status: 'crashed', reason, stderrTail });
    this.scheduleRestart(reason, stderrTail, Date.now() - this.startedAt);
  }

  /** Automatic restart with backoff; a failed attempt schedules the next one until the attempts are used up. */
  private scheduleRestart(reason: string, stderrTail: string[], uptimeMs: number): void {
    const next = this.schedule.next(uptimeMs);
    if (!next) {
      this.options.output.warn('automatic restarts used up: use Restart in the chat panel or "agentcli: Restart Runtime"');
      this.setStatus({ status: 'crashed', reason: `${reason} Automatic restarts are used up: click Restart.`, stderrTail });
      return;
    }
    this.setStatus({ status: 'restarting', reason, stderrTail, attempt: next.attempt, retryInMs: next.delayMs });
    this.clearTimer();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.ensureStarted().catch((e: unknown) => {
        if (!this.disposed) this.scheduleRestart(text(e), [], 0);
      });
    }, next.delayMs);
  }

  private cliPath(): string {
    const configured = vscode.workspace.getConfiguration('agentcli').get<string>('cliPath');
    return configured ? configured : path.join(this.options.extensionPath, 'dist', 'agentcli.js');
  }

  private runtimeEnv(): Record<string, string> {
    const env: Record<string, string> = { ELECTRON_RUN_AS_NODE: '1' };
    const rg = path.join(vscode.env.appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', process.platform === 'win32' ? 'rg.exe' : 'rg');
    if (fs.existsSync(rg)) env.AGENTCLI_RG_PATH = rg;
    return env;
  }

  private setStatus(status: RuntimeStatus): void {
    this.currentStatus = status;
    for (const l of this.statusListeners) l(status);
  }

  private clearTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private async stopQuietly(client: RuntimeClient): Promise<void> {
    try {
      await client.stop();
    } catch {
      /* already gone */
    }
  }

  dispose(): void {
    this.disposed = true;
    this.clearTimer();
    const c = this.client;
    this.client = undefined;
    if (c) void this.stopQuietly(c);
  }
}

function text(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
