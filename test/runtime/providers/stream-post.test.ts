import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';
import path from 'node:path';
import { createOpenAICompatibleProvider } from '../../../src/runtime/providers/openai-compatible';
import { errorAnswer, nodeStreamPost } from '../../../src/runtime/providers/http/stream-post';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { chat, collect, providerErrorOf, textOf } from './helpers';

describe('chat requests over node:http (stream-post)', () => {
  let stub: OpenAIStub;
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await stub.close();
  });

  it('sends the configured query as the query string and configured headers in place of its own, whatever their case', async () => {
    stub.enqueue({ text: 'ok' });
    const provider = createOpenAICompatibleProvider({
      id: 'ggufserver',
      model: 'm',
      baseURL: `${stub.url}/`,
      apiKey: 'k-123456',
      query: { 'api-version': '2024 10' },
      headers: { Authorization: 'Custom abc', 'X-Extra': 'yes' },
    });
    assert.equal(textOf(await collect(provider.streamChat(chat()))), 'ok');
    const req = stub.requests[0]!;
    assert.equal(req.path, '/v1/chat/completions');
    assert.deepEqual(req.query, { 'api-version': '2024 10' });
    assert.equal(req.headers['authorization'], 'Custom abc');
    assert.equal(req.headers['x-extra'], 'yes');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.match(String(req.headers['user-agent']), /^agentcli\//);
  });

  it('goes through a fetch the caller passes (the debug logger) and maps its refusals alike', async () => {
    stub.enqueue({ text: 'via fetch' }, { status: 401, errorBody: { error: { message: 'bad key', code: 'invalid_api_key' } } });
    const urls: string[] = [];
    const viaFetch: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };
    const provider = createOpenAICompatibleProvider({ id: 'vendorapi', model: 'm', baseURL: stub.url, fetch: viaFetch, maxRetries: 0 });
    assert.equal(textOf(await collect(provider.streamChat(chat()))), 'via fetch');
    const err = await providerErrorOf(provider.streamChat(chat()));
    assert.equal(err.code, 'auth_failed');
    assert.match(err.message, /HTTP 401\): bad key/);
    assert.deepEqual(urls, [`${stub.url}/chat/completions`, `${stub.url}/chat/completions`]);
  });

  it('reads an error answer up to its limit and closes the connection without waiting for the rest', async () => {
    let server: Server | undefined;
    try {
      server = createServer((_req, res) => {
        res.writeHead(500);
        res.write(JSON.stringify({ error: { message: 'x'.repeat(100 * 1024) } }).slice(0, 80 * 1024)); // never ends
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const answer = await nodeStreamPost({ url: new URL(`http://127.0.0.1:${port}/`), headers: {}, body: Buffer.from('{}'), signal: new AbortController().signal });
      assert.equal(answer.status, 500);
      const { detail } = await errorAnswer(answer.body);
      assert.ok(detail.length <= 500, 'errorDetail keeps the start of a text that is not JSON');
    } finally {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  it('does not follow a redirect: the error names where the server points (printable characters only) and the setting', async () => {
    // A raw socket: Node's own server refuses to send a byte outside ASCII in a header; a hostile one would not.
    let server: NetServer | undefined;
    let hits = 0;
    try {
      server = createNetServer((socket) => {
        hits++;
        socket.once('data', () =>
          socket.end(Buffer.from('HTTP/1.1 308 Permanent Redirect\r\nlocation: https://elsewhere.example/v1/caf\u00e9\u009b2J\r\ncontent-length: 0\r\n\r\n', 'latin1')),
        );
      });
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const provider = createOpenAICompatibleProvider({ id: 'ggufserver', model: 'm', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k-123456', maxRetries: 0 });
      const err = await providerErrorOf(provider.streamChat(chat()));
      assert.equal(err.code, 'provider_error');
      assert.match(err.message, /redirect \(HTTP 308\) to https:\/\/elsewhere\.example\/v1\/caf2J; requests are not redirected/);
      assert.deepEqual(err.fix, { action: 'set_base_url', configKey: 'ggufserver.baseUrl' });
      assert.equal(hits, 1);
    } finally {
      await new Promise((resolve) => server?.close(resolve));
    }
  });

  it('rejects with the abort reason when aborted before the answer', async () => {
    stub.enqueue({ text: 'late', hang: true });
    const controller = new AbortController();
    const sent = nodeStreamPost({ url: new URL(`${stub.url}/chat/completions`), headers: {}, body: Buffer.from('{}'), signal: controller.signal });
    controller.abort(new Error('stop now'));
    await assert.rejects(sent, /stop now/);
  });

  it('a -p style stream in a fresh process loads neither Node fetch (undici) nor the openai package', async function () {
    this.timeout(20_000);
    stub.enqueue({ text: 'hello' });
    const script = [
      `const { createOpenAICompatibleProvider } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/runtime/providers/openai-compatible'))});`,
      `const p = createOpenAICompatibleProvider({ id: 'ggufserver', model: 'm', baseURL: ${JSON.stringify(stub.url)} });`,
      `(async () => { let text = ''; for await (const c of p.streamChat({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal })) if (c.type === 'text') text += c.delta;`,
      `  console.log(JSON.stringify({ text, undici: process.moduleLoadList.some((m) => m.includes('undici')),`,
      `  openai: Object.keys(require.cache).some((f) => f.includes('/node_modules/openai/')) })); })();`,
    ].join('\n');
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '../../..') }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    assert.deepEqual(JSON.parse(out.trim().split('\n').at(-1)!), { text: 'hello', undici: false, openai: false });
  });
});
