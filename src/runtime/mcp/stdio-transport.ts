/**
 * An MCP server started as a local process: newline-delimited JSON-RPC on its stdin/stdout. Its stderr is kept as a
 * short tail for error reports. The process gets the runtime's environment without secrets (provider keys and
 * variables named like secrets, as for commands), plus the server's configured `env`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { JsonRpcMessage } from './json-rpc-peer';
import { MAX_MESSAGE_BYTES, type McpTransport } from './transport';

export const STDERR_TAIL_CHARS = 2000;
const KILL_GRACE_MS = 2000;

export interface StdioServerSpec {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export class StdioTransport implements McpTransport {
  readonly kind = 'stdio';
  private proc: ChildProcessWithoutNullStreams | undefined;
  private stderr = '';
  private closed = false;

  constructor(private readonly spec: StdioServerSpec) {}

  start(onMessage: (message: unknown) => void, onClose: (error: Error) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      let proc: ChildProcessWithoutNullStreams;
      try {
        proc = spawn(this.spec.command, this.spec.args, { cwd: this.spec.cwd, env: this.spec.env, stdio: 'pipe', windowsHide: true });
      } catch (e) {
        reject(new Error(`cannot start "${this.spec.command}": ${(e as Error).message}`));
        return;
      }
      this.proc = proc;
      let started = false;
      let buffer = '';
      let ended = false;
      const end = (error: Error) => {
        if (ended) return;
        ended = true;
        this.closed = true;
        if (!started) reject(error);
        else onClose(error);
      };
      proc.on('spawn', () => {
        started = true;
        resolve();
      });
      proc.on('error', (e) => end(new Error(`cannot start "${this.spec.command}": ${e.message}`)));
      // 'close' comes once stderr is read to its end; a child that keeps the pipes open still ends the server at exit.
      const exited = (code: number | null, signal: NodeJS.Signals | null) => new Error(`the server process exited (${signal ? `signal ${signal}` : `code ${code}`})`);
      proc.on('close', (code, signal) => end(exited(code, signal)));
      proc.on('exit', (code, signal) => setTimeout(() => end(exited(code, signal)), 500).unref());
      proc.stdin.on('error', () => undefined); // a dead server: reported by 'exit'
      proc.stderr.setEncoding('utf8');
      proc.stderr.on('data', (chunk: string) => {
        this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL_CHARS);
      });
      proc.stdout.setEncoding('utf8');
      proc.stdout.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line === '') continue;
          try {
            onMessage(JSON.parse(line));
          } catch {
            // not JSON-RPC (a server logging to stdout): skipped
          }
        }
        if (buffer.length > MAX_MESSAGE_BYTES) {
          buffer = '';
          this.kill();
          end(new Error(`the server sent a message over ${MAX_MESSAGE_BYTES} bytes; it was stopped`));
        }
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const proc = this.proc;
    if (!proc || this.closed) return Promise.reject(new Error('the server process is not running'));
    return new Promise((resolve, reject) => {
      proc.stdin.write(`${JSON.stringify(message)}\n`, (e) => (e ? reject(new Error(`cannot write to the server: ${e.message}`)) : resolve()));
    });
  }

  stderrTail(): string {
    return this.stderr.trim();
  }

  async close(): Promise<void> {
    this.closed = true;
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.stdin.end();
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const term = setTimeout(() => proc.kill('SIGTERM'), 200);
    const kill = setTimeout(() => proc.kill('SIGKILL'), KILL_GRACE_MS);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }

  private kill(): void {
    this.proc?.kill('SIGKILL');
  }
}
