import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JsonRpcPeer, McpRequestError, type JsonRpcMessage } from '../../../src/runtime/mcp/json-rpc-peer';
import { StreamableHttpTransport } from '../../../src/runtime/mcp/http-transport';

describe('MCP JSON-RPC peer', () => {
  it('answers a server ping, refuses other server requests, and settles requests by id', async () => {
    const sent: JsonRpcMessage[] = [];
    const peer = new JsonRpcPeer((m) => {
      sent.push(m);
      return Promise.resolve();
    });
    const pending = peer.request('tools/list', {}, { timeoutMs: 5000 });
    peer.handle({ jsonrpc: '2.0', id: 'srv-1', method: 'ping' });
    peer.handle({ jsonrpc: '2.0', id: 'srv-2', method: 'sampling/createMessage', params: {} });
    peer.handle({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    assert.deepEqual(await pending, { tools: [] });
    assert.deepEqual(sent.slice(1), [
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'method not found: sampling/createMessage' } },
    ]);
  });

  it('an error answer rejects with its message and code; an abort cancels the request and tells the server', async () => {
    const sent: JsonRpcMessage[] = [];
    const peer = new JsonRpcPeer((m) => {
      sent.push(m);
      return Promise.resolve();
    });
    const failing = peer.request('tools/call', {}, { timeoutMs: 5000 });
    peer.handle({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'unknown tool' } });
    await assert.rejects(failing, (e: unknown) => e instanceof McpRequestError && e.code === -32602 && e.message === 'unknown tool');
    const controller = new AbortController();
    const aborted = peer.request('tools/call', {}, { timeoutMs: 5000, signal: controller.signal });
    controller.abort();
    await assert.rejects(aborted, /tools\/call was cancelled/);
    assert.deepEqual(sent.at(-1), { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'cancelled by the agent' } });
  });

  it('the HTTP transport does not follow a redirect (the configured headers stay with the configured server)', async () => {
    let elsewhere = 0;
    const server = http.createServer((req, res) => {
      if (req.url === '/elsewhere') elsewhere++;
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const transport = new StreamableHttpTransport({ url, headers: { authorization: 'Bearer secret' } });
      await transport.start(() => undefined, () => undefined);
      await assert.rejects(transport.send({ jsonrpc: '2.0', id: 1, method: 'initialize' }), /cannot reach .*redirect/);
      assert.equal(elsewhere, 0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
