/**
 * The `agentcli` output channel: lifecycle lines always, protocol traffic when `agentcli.debug` is on.
 * Everything passes through the redactor; secrets we hold (API keys from SecretStorage) are scrubbed by value too.
 */
import * as vscode from 'vscode';
import { redact, scrubString } from './redact';

const MAX_TRACE_CHARS = 4000;
/** How the runtime's debug lines begin (src/runtime/debug/debug-fetch.ts). */
const RUNTIME_DEBUG_PREFIX = '[agentcli debug]';

export class Output implements vscode.Disposable {
  private channel: vscode.LogOutputChannel | undefined;
  private readonly secrets = new Set<string>();
  /** `agentcli.debug`, read once and again after it changes: `trace` asks at every protocol message, both ways. */
  private debugOn: boolean | undefined;
  private debugWatch: vscode.Disposable | undefined;

  /** The channel is created on first use, keeping activation cheap. */
  private get out(): vscode.LogOutputChannel {
    this.channel ??= vscode.window.createOutputChannel('agentcli', { log: true });
    return this.channel;
  }

  get debug(): boolean {
    this.debugWatch ??= vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('agentcli.debug')) this.debugOn = undefined;
    });
    return (this.debugOn ??= vscode.workspace.getConfiguration('agentcli').get<boolean>('debug') === true);
  }

  /** Values to scrub from every line (API keys, client secrets). */
  setKnownSecrets(values: Iterable<string>): void {
    this.secrets.clear();
    for (const v of values) if (v) this.secrets.add(v);
  }

  /** One more value to scrub (a key typed but not stored yet). */
  addKnownSecret(value: string): void {
    if (value) this.secrets.add(value);
  }

  info(message: string): void {
    this.out.info(scrubString(message, this.secrets));
  }

  warn(message: string): void {
    this.out.warn(scrubString(message, this.secrets));
  }

  error(message: string): void {
    this.out.error(scrubString(message, this.secrets));
  }

  /** One protocol message, when debug is on; long messages are cut so the channel stays usable. */
  trace(direction: 'send' | 'recv', message: unknown): void {
    if (!this.debug) return;
    let text = JSON.stringify(redact(message, this.secrets));
    if (text.length > MAX_TRACE_CHARS) text = `${text.slice(0, MAX_TRACE_CHARS)}… (${text.length} chars)`;
    this.out.info(`${direction === 'send' ? '→' : '←'} ${text}`);
  }

  /**
   * A runtime stderr line (its own logs). Its debug lines (the requests it sends, when it was started with debug on)
   * are dropped while `agentcli.debug` is off: the setting takes effect at once, not at the runtime's next start.
   */
  stderr(line: string): void {
    if (line.startsWith(RUNTIME_DEBUG_PREFIX) && !this.debug) return;
    this.out.info(`[runtime] ${scrubString(line, this.secrets)}`);
  }

  show(): void {
    this.out.show(true);
  }

  dispose(): void {
    this.debugWatch?.dispose();
    this.channel?.dispose();
  }
}
