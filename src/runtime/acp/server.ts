/**
 * `agentcli --acp`: the Agent Client Protocol on stdio, through the official library's agent side. Each ACP session
 * is one runtime Session rooted in the `cwd` the client gives. Loaded only in this mode (main.ts requires it lazily).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  agent,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  RequestError,
  type AgentContext,
  type ClientCapabilities,
  type InitializeResponse,
  type McpServer,
} from '@agentclientprotocol/sdk';
import type { RunHost } from '../agent/host';
import type { Session, SessionOptions } from '../agent/session';
import type { McpServersConfig } from '../mcp/server-config';
import type { HistoryPage } from '../sessions/history';
import { RUNTIME_VERSION } from '../version';
import { AcpSession } from './acp-session';
import { acpMcpServers, McpServerParamsError } from './mcp-servers';
import { applyMode, currentModeId, modeState } from './modes';

/** Builds a runtime session for a folder (its project config read), with the client's MCP servers added. */
export type AcpSessionFactory = (
  cwd: string,
  host: RunHost,
  files: NonNullable<SessionOptions['files']>,
  mcpServers: McpServersConfig,
) => Session;

export interface AcpServerOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  createSession: AcpSessionFactory;
  /** The saved sessions, newest first (of one folder when `cwd` is given); page counts from 1. */
  listSessions: (q: { cwd?: string; page: number; pageSize: number }) => HistoryPage;
  log: (line: string) => void;
}

/** Saved sessions listed per `session/list` page. */
export const LIST_PAGE_SIZE = 50;

/** What this agent offers, honestly: only what is built and tested. */
export function initializeResponse(): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { list: {}, close: {}, additionalDirectories: {} },
    },
    agentInfo: { name: 'agentcli', title: 'agentcli', version: RUNTIME_VERSION },
    authMethods: [],
  };
}

function checkFolder(dir: string, field: string): string {
  if (!path.isAbsolute(dir)) throw RequestError.invalidParams(undefined, `${field} must be an absolute path (got "${dir}")`);
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a folder');
  } catch {
    throw RequestError.invalidParams(undefined, `${field}: ${dir} is not an existing folder`);
  }
  return dir;
}

function mcpConfig(servers: McpServer[] | undefined): McpServersConfig {
  try {
    return acpMcpServers(servers ?? []);
  } catch (e) {
    if (e instanceof McpServerParamsError) throw RequestError.invalidParams(undefined, e.message);
    throw e;
  }
}

/** Serves until the client closes the connection; then every session ends (its run aborted, its saved file closed). */
export async function startAcpServer(opts: AcpServerOptions): Promise<void> {
  const sessions = new Map<string, AcpSession>();
  let clientCaps: ClientCapabilities = {};
  const find = (sessionId: string): AcpSession => {
    const s = sessions.get(sessionId);
    if (!s) throw RequestError.invalidParams(undefined, `unknown session "${sessionId}": create one with session/new or load it with session/load`);
    return s;
  };
  const open = (params: { cwd: string; mcpServers?: McpServer[]; additionalDirectories?: string[] }, client: AgentContext): AcpSession => {
    const mcp = mcpConfig(params.mcpServers);
    const roots = (params.additionalDirectories ?? []).map((d) => checkFolder(d, 'additionalDirectories'));
    let s: AcpSession;
    try {
      s = new AcpSession(checkFolder(params.cwd, 'cwd'), client, clientCaps, (dir, host, files) => opts.createSession(dir, host, files, mcp), opts.log);
    } catch (e) {
      if (e instanceof RequestError) throw e;
      throw RequestError.invalidParams(undefined, (e as Error).message); // e.g. the folder's .agentcli/config.json is invalid
    }
    // The client's extra roots are granted like a folder allowed for the session (writes and commands still ask).
    for (const root of roots) s.session.grants.grantSession(root);
    return s;
  };

  const app = agent({ name: 'agentcli' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      return initializeResponse();
    })
    .onRequest(methods.agent.session.new, ({ params, client }) => {
      const s = open(params, client);
      sessions.set(s.id, s);
      setTimeout(() => s.announceCommands(), 0); // after the answer: the client knows the session by then
      return { sessionId: s.id, modes: modeState(s.session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      if (sessions.has(params.sessionId)) throw RequestError.invalidRequest(undefined, `session "${params.sessionId}" is already open on this connection`);
      const s = open(params, client);
      const out = s.session.attachSaved(params.sessionId);
      if (!out.attached) {
        s.session.end();
        if (out.reason === 'not_found') throw RequestError.resourceNotFound(params.sessionId);
        throw RequestError.invalidParams(undefined, out.message);
      }
      if (out.pendingBatch) {
        // ACP has no review of a change batch, and a session with one waiting takes no prompt.
        s.session.end();
        const n = out.pendingBatch.changes.length;
        throw RequestError.invalidParams(
          undefined,
          `saved session "${params.sessionId}" has ${n} proposed file change(s) waiting for a decision: decide them first (agentcli --resume ${params.sessionId}, or the editor that made them), then load it here`,
        );
      }
      sessions.set(s.id, s);
      await s.replayHistory();
      setTimeout(() => s.announceCommands(), 0);
      return { modes: modeState(s.session) };
    })
    .onRequest(methods.agent.session.list, ({ params }) => {
      const page = params.cursor ? Number(params.cursor) : 1;
      if (!Number.isInteger(page) || page < 1) throw RequestError.invalidParams(undefined, `cursor "${params.cursor}" is not one this agent gave: leave it out for the first page`);
      const found = opts.listSessions({ ...(params.cwd ? { cwd: params.cwd } : {}), page, pageSize: LIST_PAGE_SIZE });
      return {
        sessions: found.entries.map((e) => ({ sessionId: e.sessionId, cwd: e.cwd, title: e.title, updatedAt: e.updatedAt })),
        ...(page * LIST_PAGE_SIZE < found.total ? { nextCursor: String(page + 1) } : {}),
      };
    })
    .onRequest(methods.agent.session.close, ({ params }) => {
      find(params.sessionId).end();
      sessions.delete(params.sessionId);
      return {};
    })
    .onRequest(methods.agent.session.setMode, ({ params }) => {
      const s = find(params.sessionId);
      try {
        applyMode(s.session, params.modeId);
      } catch (e) {
        throw RequestError.invalidParams(undefined, (e as Error).message);
      }
      s.notify({ sessionUpdate: 'current_mode_update', currentModeId: currentModeId(s.session) });
      return {};
    })
    .onRequest(methods.agent.session.prompt, ({ params, signal }) => find(params.sessionId).prompt(params.prompt, signal))
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  const input = Readable.toWeb(opts.input as Readable) as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(opts.output as Writable) as WritableStream<Uint8Array>;
  const connection = app.connect(ndJsonStream(output, input));
  try {
    await connection.closed;
  } finally {
    for (const s of sessions.values()) s.end();
    sessions.clear();
  }
}
