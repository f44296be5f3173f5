/**
 * Drives `node dist/agentcli.js --acp` as an independent ACP client would: the official library's client side over
 * the child's stdio. Records every session/update, permission request and client file call; each test decides how
 * the client answers permission requests and whether it offers file access.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type ClientContext,
  type InitializeResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { CLI, testEnv } from '../../helpers/runtime-process';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';

export interface AcpClientOptions {
  env?: NodeJS.ProcessEnv;
  args?: string[];
  /** Offer fs/read_text_file and fs/write_text_file, served from this map (absolute path -> text); absent: not offered. */
  files?: Map<string, string>;
}

export interface AcpUnderTest {
  proc: ChildProcess;
  agent: ClientContext;
  init: InitializeResponse;
  updates: SessionNotification[];
  permissionRequests: RequestPermissionRequest[];
  reads: string[];
  writes: Array<{ path: string; content: string }>;
  /** How the client answers a permission request (default: allow once). */
  answer: (req: RequestPermissionRequest, signal: AbortSignal) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  stderr(): string;
  /** The updates of one kind, in order. */
  ofKind<K extends SessionUpdate['sessionUpdate']>(kind: K): Array<Extract<SessionUpdate, { sessionUpdate: K }>>;
  /** The text of all agent_message_chunk updates. */
  agentText(): string;
  close(): Promise<void>;
}

export const allowOnce = (): RequestPermissionResponse => ({ outcome: { outcome: 'selected', optionId: 'once' } });

export async function startAcp(opts: AcpClientOptions = {}): Promise<AcpUnderTest> {
  const proc = spawn(process.execPath, [CLI, '--acp', ...(opts.args ?? [])], { env: opts.env ?? testEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d) => (stderr += d));
  const t: Omit<AcpUnderTest, 'agent' | 'init'> = {
    proc,
    updates: [],
    permissionRequests: [],
    reads: [],
    writes: [],
    answer: allowOnce,
    stderr: () => stderr,
    ofKind: (kind) => t.updates.map((n) => n.update).filter((u) => u.sessionUpdate === kind) as never,
    agentText: () => t.ofKind('agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join(''),
    close: async () => {
      connection.close();
      proc.stdin!.end();
      if (proc.exitCode === null && proc.signalCode === null) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
          proc.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
  };
  const files = opts.files;
  let app = client({ name: 'acp-test-client' })
    .onNotification(methods.client.session.update, ({ params }) => {
      t.updates.push(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) => {
      t.permissionRequests.push(params);
      return t.answer(params, signal);
    });
  if (files) {
    app = app
      .onRequest(methods.client.fs.readTextFile, ({ params }) => {
        t.reads.push(params.path);
        const text = files.get(params.path);
        if (text === undefined) throw new Error(`no buffer for ${params.path}`);
        return { content: text };
      })
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
        t.writes.push({ path: params.path, content: params.content });
        files.set(params.path, params.content);
        return {};
      });
  }
  const stream = ndJsonStream(Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(proc.stdout!) as ReadableStream<Uint8Array>);
  const connection: ClientConnection = app.connect(stream);
  const init = await connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: files !== undefined, writeTextFile: files !== undefined }, terminal: false },
    clientInfo: { name: 'acp-test-client', version: '1.0.0' },
  });
  return Object.assign(t, { agent: connection.agent, init });
}

/** The tool results the model received in request `n`. */
export function toolResults(stub: OpenAIStub, n: number): string[] {
  const messages = stub.requests[n]!.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

/** A stub model per test and every ACP runtime a test started closed after it (call inside a `describe`). */
export function useAcpSuite(): { readonly stub: OpenAIStub; start: typeof startAcp } {
  let stub: OpenAIStub | undefined;
  const started: AcpUnderTest[] = [];
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await Promise.all(started.splice(0).map((a) => a.close()));
    await stub?.close();
  });
  return {
    get stub() {
      if (!stub) throw new Error('useAcpSuite: the stub starts in beforeEach');
      return stub;
    },
    start: async (...args) => {
      const acp = await startAcp(...args);
      started.push(acp);
      return acp;
    },
  };
}
