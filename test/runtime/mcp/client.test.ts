/**
 * The MCP client against real servers (the stubs of test/stubs): stdio, Streamable HTTP answering JSON or an event
 * stream, and the older HTTP+SSE reached by falling back; paged tool lists, calls, list_changed, a timeout that
 * cancels the call, and a server that fails to start reported with its stderr tail.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { McpTimeoutError, type McpClient } from '../../../src/runtime/mcp/client';
import { MAX_STDIO_MESSAGE_BYTES, transportsFor, type OpenedTransport } from '../../../src/runtime/mcp/sdk-transports';
import { McpServerSchema } from '../../../src/runtime/mcp/server-config';
import { connectClient } from '../../../src/runtime/mcp/server-connection';
import { MAX_MESSAGE_BYTES } from '../../../src/runtime/mcp/transport';
import { startMcpHttpStub, type McpHttpStub } from '../../stubs/mcp-http-server';
import { stdioStubServer } from './mcp-stubs';

const ctx = { cwd: os.tmpdir(), env: process.env, shellEnv: { include: [], exclude: [] } };

async function connect(server: Record<string, unknown>, onClose: (e: Error) => void = () => undefined): Promise<McpClient> {
  return connectClient(transportsFor('x', McpServerSchema.parse(server), ctx), 10_000, (_c, e) => onClose(e));
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('MCP client', () => {
  const clients: McpClient[] = [];
  let stub: McpHttpStub | undefined;
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await stub?.close();
    stub = undefined;
  });

  const kinds: Array<[string, () => Promise<Record<string, unknown>>, string]> = [
    ['stdio', () => Promise.resolve(stdioStubServer()), 'stdio'],
    ['Streamable HTTP (JSON answers)', async () => ({ url: (stub = await startMcpHttpStub('json')).url }), 'streamable-http'],
    ['Streamable HTTP (event-stream answers)', async () => ({ url: (stub = await startMcpHttpStub('sse')).url }), 'streamable-http'],
    ['HTTP+SSE (fallback for older servers)', async () => ({ url: (stub = await startMcpHttpStub('legacy-sse')).url }), 'sse'],
  ];
  for (const [label, server, kind] of kinds) {
    it(`${label}: handshake, every page of tools, a call, and tools/list_changed`, async () => {
      const client = await connect(await server());
      clients.push(client);
      assert.equal(client.opened.kind, kind);
      assert.equal(client.serverName, 'mcp-stub');
      const tools = await client.listTools(5000);
      assert.deepEqual(
        tools.map((t) => t.name),
        ['echo', 'slow', 'big', 'fail', 'env', 'add_tool', 'weird.name', 'bad_schema'],
      );
      const result = await client.callTool('echo', { text: 'hi' }, 5000, new AbortController().signal);
      assert.deepEqual(result, { content: [{ type: 'text', text: 'echo: hi' }], isError: false });
      let changed = 0;
      client.onToolsChanged(() => changed++);
      await client.callTool('add_tool', {}, 5000, new AbortController().signal);
      await until(() => changed > 0, 'notifications/tools/list_changed');
      assert.ok((await client.listTools(5000)).some((t) => t.name === 'later'));
    });
  }

  it('sends the configured headers to an HTTP server', async () => {
    stub = await startMcpHttpStub('json');
    clients.push(await connect({ url: stub.url, headers: { Authorization: 'Bearer stub-token' } }));
    assert.ok(stub.headers.length > 0 && stub.headers.every((h) => h.authorization === 'Bearer stub-token'));
  });

  it('a call past its timeout fails with McpTimeoutError and the server is told to cancel it', async () => {
    stub = await startMcpHttpStub('json');
    const client = await connect({ url: stub.url });
    clients.push(client);
    await assert.rejects(client.callTool('slow', { ms: 2000 }, 200, new AbortController().signal), McpTimeoutError);
    await until(() => stub!.state.cancelled.length === 1, 'notifications/cancelled');
  });

  it('a server that exits before the handshake fails with its exit, and its stderr tail is kept', async () => {
    const factories = transportsFor('x', McpServerSchema.parse(stdioStubServer(['--crash'])), ctx);
    let transport: OpenedTransport | undefined;
    await assert.rejects(
      connectClient(factories, 10_000, () => undefined, (t) => (transport = t)),
      /exited \(code 3\)/,
    );
    const tail = transport?.stderrTail() ?? '';
    assert.match(tail, /fatal: the database file is missing/);
  });

  it('a server that dies later is reported through onClose, and pending calls fail', async () => {
    let closed: Error | undefined;
    const client = await connect(stdioStubServer(['--crash-after-call']), (e) => (closed = e));
    clients.push(client);
    await assert.rejects(client.callTool('echo', { text: 'x' }, 5000, new AbortController().signal), /exited \(code 7\)/);
    assert.match(String(closed?.message), /exited \(code 7\)/);
  });

  it('a tools/list answer the MCP schema refuses fails the listing with the reason', async () => {
    const client = await connect(stdioStubServer(['--bad-tool-list']));
    clients.push(client);
    await assert.rejects(client.listTools(5000), /the server's answer to tools\/list does not follow the MCP schema: tools\[0\]\.inputSchema\.type: Invalid input: expected "object"$/);
  });

  it('a stdio server writing a line over the message limit is stopped, and the reason says so', async () => {
    const flood = `process.stdout.write('x'.repeat(${MAX_STDIO_MESSAGE_BYTES + 1024})); setInterval(() => undefined, 1000);`;
    const limit = new RegExp(`the server sent a message over ${MAX_STDIO_MESSAGE_BYTES} bytes; it was stopped`);
    await assert.rejects(connect({ command: process.execPath, args: ['-e', flood] }), limit);
  });

  it('a program that cannot be started is a clear error', async () => {
    await assert.rejects(connect({ command: 'agentcli-no-such-mcp-server' }), /cannot start "agentcli-no-such-mcp-server": .*ENOENT/);
  });

  it('an abort cancels the call at once and the server is told to cancel it', async () => {
    stub = await startMcpHttpStub('sse');
    const client = await connect({ url: stub.url });
    clients.push(client);
    const controller = new AbortController();
    const call = client.callTool('slow', { ms: 5000 }, 10_000, controller.signal);
    await until(() => stub!.state.calls.some((c) => c.name === 'slow'), 'the call to reach the server');
    controller.abort();
    await assert.rejects(call, /slow was cancelled/);
    await until(() => stub!.state.cancelled.length === 1, 'notifications/cancelled');
  });

  describe('HTTP guards', () => {
    let server: http.Server | undefined;
    afterEach(() => {
      server?.closeAllConnections();
      server?.close();
      server = undefined;
    });
    async function serve(handler: http.RequestListener): Promise<string> {
      server = http.createServer(handler);
      await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    }

    it('a redirect is refused, even within the origin (the configured headers stay with the configured URL)', async () => {
      let elsewhere = 0;
      const url = await serve((req, res) => {
        if (req.url === '/elsewhere') elsewhere++;
        res.writeHead(307, { location: '/elsewhere' }).end();
      });
      await assert.rejects(connect({ url, headers: { authorization: 'Bearer secret' } }), /answered with a redirect \(HTTP 307 to \/elsewhere\); redirects are refused/);
      assert.equal(elsewhere, 0);
    });

    it('a JSON answer over the message limit is refused', async () => {
      const url = await serve((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let i = 0; i <= MAX_MESSAGE_BYTES / chunk.length; i++) res.write(chunk);
        res.end('{}');
      });
      await assert.rejects(connect({ url }), new RegExp(`sent a message over ${MAX_MESSAGE_BYTES} bytes; it was refused`));
    });
  });
});
