/**
 * The stub MCP server (mcp-stub-core.ts) over HTTP on 127.0.0.1, in the test's own process. Modes:
 * - `json`: Streamable HTTP answering each POST with application/json;
 * - `sse`: Streamable HTTP answering each POST with a one-event text/event-stream;
 * - `legacy-sse`: the older HTTP+SSE transport (POST to the URL is refused with 405; GET opens the event stream whose
 *   `endpoint` event names where to POST, and answers travel on that stream).
 * A GET stream (Streamable HTTP) carries the server's notifications (tools/list_changed).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpStubCore, type Message } from './mcp-stub-core';

export type McpHttpMode = 'json' | 'sse' | 'legacy-sse';

export interface McpHttpStub {
  url: string;
  core: McpStubCore;
  /** Headers of every request received. */
  headers: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
  });
}

const sseEvent = (event: string, data: string) => `event: ${event}\ndata: ${data}\n\n`;

export async function startMcpHttpStub(mode: McpHttpMode): Promise<McpHttpStub> {
  const streams = new Set<http.ServerResponse>();
  const broadcast = (m: Message) => {
    for (const s of streams) s.write(sseEvent('message', JSON.stringify(m)));
  };
  const core = new McpStubCore(broadcast);
  const headers: http.IncomingHttpHeaders[] = [];
  const sessionId = `stub-session-${process.pid}`;

  const server = http.createServer((req, res) => {
    headers.push(req.headers);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    void (async () => {
      if (mode === 'legacy-sse') {
        if (req.method === 'GET' && url.pathname === '/mcp') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
          res.write(sseEvent('endpoint', `/messages?sessionId=${sessionId}`));
          streams.add(res);
          req.on('close', () => streams.delete(res));
          return;
        }
        if (req.method === 'POST' && url.pathname === '/messages') {
          const message = JSON.parse(await readBody(req)) as Message;
          res.writeHead(202).end('Accepted');
          const answer = await core.handle(message);
          if (answer) broadcast(answer);
          return;
        }
        res.writeHead(405).end('method not allowed');
        return;
      }
      if (url.pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      if (req.method === 'GET') {
        if (req.headers['mcp-session-id'] !== sessionId) return void res.writeHead(400).end('no session');
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(': stream open\n\n');
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(await readBody(req)) as Message;
      const isInit = message.method === 'initialize';
      if (!isInit && req.headers['mcp-session-id'] !== sessionId) return void res.writeHead(400).end('missing or unknown mcp-session-id');
      const answer = await core.handle(message);
      const sessionHeader = isInit ? { 'mcp-session-id': sessionId } : {};
      if (!answer) return void res.writeHead(202, sessionHeader).end();
      if (mode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json', ...sessionHeader }).end(JSON.stringify(answer));
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', ...sessionHeader });
        res.end(sseEvent('message', JSON.stringify(answer)));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    core,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
