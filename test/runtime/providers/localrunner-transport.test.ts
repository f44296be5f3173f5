import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LocalRunnerProvider, type LocalRunnerOptions } from '../../../src/runtime/providers/localrunner/provider';
import { startLocalRunnerStub } from '../../stubs/localrunner-stub';
import { chat, collect, providerErrorOf } from './helpers';

/** A raw server for what the stub does not play: answers withheld, redirects, a stream cut by the client. */
async function rawServer(handler: http.RequestListener): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const runner = (baseUrl: string, extra: Partial<LocalRunnerOptions> = {}) =>
  new LocalRunnerProvider({ baseUrl, model: 'llama3.2', numCtx: 4096, temperature: 0.2, keepAlive: '5m', maxRetries: 0, ...extra });

describe('localrunner chat over node:http', () => {
  it('a -p style chat in a fresh process does not load Node fetch (undici)', async function () {
    this.timeout(20_000);
    const stub = await startLocalRunnerStub();
    try {
      stub.enqueue({ text: 'hello' });
      const script = [
        `const { LocalRunnerProvider } = require(${JSON.stringify(path.resolve(__dirname, '../../../src/runtime/providers/localrunner/provider'))});`,
        `const p = new LocalRunnerProvider({ baseUrl: ${JSON.stringify(stub.origin)}, model: 'llama3.2', numCtx: 4096, temperature: 0, keepAlive: '5m' });`,
        `(async () => { let text = ''; for await (const c of p.streamChat({ messages: [{ role: 'user', content: 'hi' }], tools: [], signal: new AbortController().signal })) if (c.type === 'text') text += c.delta;`,
        `  console.log(JSON.stringify({ text, undici: process.moduleLoadList.some((m) => m.includes('undici')) })); })();`,
      ].join('\n');
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '../../..') }, (err, stdout, stderr) =>
          err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
        ),
      );
      assert.deepEqual(JSON.parse(out.trim().split('\n').at(-1)!), { text: 'hello', undici: false });
      assert.equal(stub.requests[0]!.headers['content-type'], 'application/json');
    } finally {
      await stub.close();
    }
  });

  it('no answer within the idle timeout is a stream_timeout naming the server, and the request is dropped', async () => {
    let closed = false;
    const server = await rawServer((req) => req.on('close', () => (closed = true)));
    try {
      const err = await providerErrorOf(runner(server.origin, { idleTimeoutMs: 150 }).streamChat(chat()));
      assert.equal(err.code, 'stream_timeout');
      assert.match(err.message, new RegExp(`the local runner at ${server.origin} did not answer within`));
      for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(closed, 'the connection was closed');
    } finally {
      await server.close();
    }
  });

  it('a redirect is not followed: the error names where it points and the baseUrl setting', async () => {
    let followed = 0;
    const server = await rawServer((req, res) => {
      if (req.url === '/elsewhere/api/chat') followed++;
      res.writeHead(307, { location: '/elsewhere/api/chat' }).end();
    });
    try {
      const err = await providerErrorOf(runner(server.origin).streamChat(chat()));
      assert.equal(err.code, 'provider_error');
      assert.match(err.message, /redirect \(HTTP 307\) to \/elsewhere\/api\/chat/);
      assert.match(err.remedy ?? '', /localrunner\.baseUrl/);
      assert.equal(followed, 0);
    } finally {
      await server.close();
    }
  });

  it('a refusal still names its remedy (model not found → pull it)', async () => {
    const server = await rawServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: "model 'm' not found" })));
    try {
      const err = await providerErrorOf(runner(server.origin).streamChat(chat()));
      assert.match(`${err.message} ${err.remedy ?? ''}`, /pull/);
    } finally {
      await server.close();
    }
  });

  it('cancelling in the middle of the answer ends the stream with the abort and closes the connection', async () => {
    let closed = false;
    const server = await rawServer((req, res) => {
      req.on('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`${JSON.stringify({ message: { role: 'assistant', content: 'first ' }, done: false })}\n`);
      // then nothing more: the client cancels
    });
    try {
      const controller = new AbortController();
      const seen: string[] = [];
      const failure = await (async () => {
        try {
          for await (const c of runner(server.origin).streamChat(chat(undefined, controller.signal))) {
            if (c.type === 'text') {
              seen.push(c.delta);
              controller.abort(new Error('stopped by the user'));
            }
          }
          return undefined;
        } catch (e) {
          return e as Error;
        }
      })();
      assert.deepEqual(seen, ['first ']);
      assert.ok(failure, 'the stream ended with an error');
      for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(closed, 'the connection was closed');
    } finally {
      await server.close();
    }
  });

  it('still streams through a fetch the caller passes (the debug logger)', async () => {
    const stub = await startLocalRunnerStub();
    try {
      stub.enqueue({ text: 'via fetch' });
      let calls = 0;
      const counting: typeof fetch = (input, init) => {
        calls++;
        return fetch(input, init);
      };
      const chunks = await collect(runner(stub.origin, { fetch: counting }).streamChat(chat()));
      assert.equal(chunks.filter((c) => c.type === 'text').map((c) => (c.type === 'text' ? c.delta : '')).join(''), 'via fetch');
      assert.equal(calls, 1);
    } finally {
      await stub.close();
    }
  });
});
