/**
 * The `agentcli` output channel: lifecycle lines always, protocol traffic when `agentcli.debug` is on.
 * Everything passes through the redactor; secrets we hold (API keys from SecretStorage) are scrubbed by value too.
 */
import * as vscode from 'vscode';
import { redact, scrubString } from './redact';

const MAX_TRACE_CHARS = 4000;

export class Output implements vscode.Disposable {
  private channel: vscode.LogOutputChannel | undefined;
  private readonly secrets = new Set<string>();

  /** The channel is created on first use, keeping activation cheap. */
  private get out(): vscode.LogOutputChannel {
    this.channel ??= vscode.window.createOutputChannel('agentcli', { log: true });
    return this.channel;
  }

  get debug(): boolean {
    return vscode.workspace.getConfiguration('agentcli').get<boolean>('debug') === true;
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

  /** A runtime stderr line (its own logs). */
  stderr(line: string): void {
    this.out.info(`[runtime] ${scrubString(line, this.secrets)}`);
  }

  show(): void {
    this.out.show(true);
  }

  dispose(): void {
    this.channel?.dispose();
  }
}
