import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_NOTIFICATION, PROTOCOL_VERSION, type AgentEvent, type MethodName, type ParamsOf, type ResultOf } from '../../src/protocol';
import { createNdjsonConnection } from '../../src/protocol/transport';
import { startOpenAIStub, type OpenAIStub } from '../stubs/openai-stub';
import { makeTempDir } from './temp-dir';

export const CLI = path.resolve(__dirname, '../../dist/agentcli.js');

/** A temp workspace whose project config points the ggufserver provider at a stub server. */
export function makeWorkspace(files: Record<string, string>, stubOrigin?: string, extraConfig: Record<string, unknown> = {}): string {
  const dir = makeTempDir('agentcli-ws-');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  if (stubOrigin) {
    mkdirSync(path.join(dir, '.agentcli'), { recursive: true });
    writeFileSync(
      path.join(dir, '.agentcli', 'config.json'),
      JSON.stringify({ provider: 'ggufserver', ggufserver: { baseUrl: stubOrigin }, ...extraConfig }, null, 2),
    );
  }
  return dir;
}

/** Environment for a runtime under test: an empty HOME so no user config leaks in. */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = makeTempDir('agentcli-home-');
  // Every event the runtime sends is checked against the protocol (an invalid one stops it: see rpc/event-check.ts).
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, AGENTCLI_VALIDATE_EVENTS: '1', ...extra };
  return env;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI once to its exit (stdin gets `stdin`, or is closed at once) and collects its output. */
export function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = testEnv(), stdin?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    if (stdin !== undefined) proc.stdin.end(stdin);
    else proc.stdin.end();
    proc.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RuntimeUnderTest {
  proc: ChildProcess;
  events: AgentEvent[];
  stderr: () => string;
  request<M extends MethodName>(method: M, params: ParamsOf<M>): Promise<ResultOf<M>>;
  raw(method: string, params?: unknown): Promise<unknown>;
  waitForEvent<T extends AgentEvent['type']>(type: T, pred?: (e: Extract<AgentEvent, { type: T }>) => boolean, timeoutMs?: number): Promise<Extract<AgentEvent, { type: T }>>;
  close(): Promise<void>;
}

/** Spawns the built runtime in rpc mode and completes the handshake. */
export async function startRuntime(cwd: string, opts: { env?: NodeJS.ProcessEnv; args?: string[]; initialize?: boolean } = {}): Promise<RuntimeUnderTest> {
  const proc = spawn(process.execPath, [CLI, '--mode', 'rpc', ...(opts.args ?? [])], {
    cwd,
    env: opts.env ?? testEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const conn = createNdjsonConnection(proc.stdout!, proc.stdin!);
  const events: AgentEvent[] = [];
  const waiters: Array<() => void> = [];
  conn.onNotification(EVENT_NOTIFICATION, (e: AgentEvent) => {
    events.push(e);
    for (const w of [...waiters]) w();
  });
  conn.listen();
  const rt: RuntimeUnderTest = {
    proc,
    events,
    stderr: () => stderr,
    request: (method, params) => conn.sendRequest(method, params) as never,
    raw: (method, params) => conn.sendRequest(method, params as never),
    waitForEvent: (type, pred, timeoutMs = 15000) =>
      new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < events.length; seen++) {
            const e = events[seen]!;
            if (e.type === type && (!pred || pred(e as never))) {
              cleanup();
              resolve(e as never);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${type} event within ${timeoutMs} ms; events: ${events.map((e) => e.type).join(', ')}\nstderr: ${stderr}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          const i = waiters.indexOf(check);
          if (i >= 0) waiters.splice(i, 1);
        };
        waiters.push(check);
        check();
      }),
    close: async () => {
      conn.dispose();
      proc.stdin!.end();
      if (proc.exitCode === null && proc.signalCode === null) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(() => proc.kill('SIGKILL'), 3000);
          proc.once('exit', () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    },
  };
  if (opts.initialize !== false) await rt.request('initialize', { protocolVersion: PROTOCOL_VERSION });
  return rt;
}

/** Event types in order, without the noisy streaming ones. */
export function eventTrace(events: AgentEvent[], skip: AgentEvent['type'][] = ['message_update', 'tool_update', 'change_batch_updated']): string[] {
  return events.filter((e) => !skip.includes(e.type)).map((e) => e.type);
}

/**
 * Mocha hooks for tests that drive the runtime against a fresh stub model server: each test gets its own stub, and
 * every runtime started through `start` is closed after it.
 */
export function useStubbedRuntime(): { readonly stub: OpenAIStub; start: typeof startRuntime } {
  let stub: OpenAIStub | undefined;
  const started: RuntimeUnderTest[] = [];
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((rt) => rt.close()));
    await stub?.close();
  });
  return {
    get stub() {
      if (!stub) throw new Error('the stub exists only inside a test');
      return stub;
    },
    start: async (cwd, opts) => {
      const rt = await startRuntime(cwd, opts);
      started.push(rt);
      return rt;
    },
  };
}
