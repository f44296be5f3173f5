/**
 * The stub MCP server (mcp-stub-core.ts) over HTTP on 127.0.0.1, in the test's own process, with the library's server
 * transports (one stub server per session). Modes:
 * - `json`: Streamable HTTP answering each POST with application/json;
 * - `sse`: Streamable HTTP answering each POST with a text/event-stream;
 * - `legacy-sse`: the older HTTP+SSE transport only (a POST to the URL is refused with 405; GET opens the event stream
 *   whose `endpoint` event names where to POST).
 * Streamable HTTP's GET stream carries the server's own notifications (tools/list_changed).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createStubServer, newStubState, type StubState } from './mcp-stub-core';

export type McpHttpMode = 'json' | 'sse' | 'legacy-sse';

export interface McpHttpStub {
  url: string;
  state: StubState;
  /** Headers of every request received. */
  headers: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startMcpHttpStub(mode: McpHttpMode): Promise<McpHttpStub> {
  const state = newStubState();
  const headers: http.IncomingHttpHeaders[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();

  async function legacySse(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (req.method === 'GET' && url.pathname === '/mcp') {
      const transport = new SSEServerTransport('/messages', res);
      legacy.set(transport.sessionId, transport);
      res.on('close', () => legacy.delete(transport.sessionId));
      await createStubServer(state).connect(transport);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const transport = legacy.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) return void res.writeHead(404).end('unknown session');
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405).end('method not allowed');
  }

  async function streamable(req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
    if (url.pathname !== '/mcp') return void res.writeHead(404).end();
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      if (id !== undefined) return void res.writeHead(404).end('unknown session');
      if (req.method !== 'POST') return void res.writeHead(400).end('no session');
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: mode === 'json',
        onsessioninitialized: (sid) => void sessions.set(sid, created),
      });
      created.onclose = () => void (created.sessionId && sessions.delete(created.sessionId));
      await createStubServer(state).connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res);
  }

  const server = http.createServer((req, res) => {
    headers.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    (mode === 'legacy-sse' ? legacySse(req, res, url) : streamable(req, res, url)).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    state,
    headers,
    close: async () => {
      await Promise.all([...sessions.values(), ...legacy.values()].map((t) => t.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
