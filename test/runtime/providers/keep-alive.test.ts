import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { releaseBody } from '../../../src/runtime/providers/http/stream-post';
import { LocalRunnerProvider } from '../../../src/runtime/providers/localrunner/provider';
import { createOpenAICompatibleProvider } from '../../../src/runtime/providers/openai-compatible';
import { chat, collect, textOf } from './helpers';

/** An answering server that counts connections; `endBody: false` sends the answer's end marker but never ends the body. */
async function countingServer(answer: 'sse' | 'ndjson', endBody = true, drop: 'none' | 'reused' | 'after-first' = 'none') {
  let connections = 0;
  let requests = 0;
  const open = new Set<import('node:net').Socket>();
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    requests++;
    const onThisSocket = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, onThisSocket);
    // A connection closed as a request arrives on it: what a server that dropped an idle kept connection looks like.
    if ((drop === 'reused' && onThisSocket > 1) || (drop === 'after-first' && requests > 1)) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      if (answer === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] })}\n\n`);
        res.write(`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        if (endBody) res.end('data: [DONE]\n\n');
        else res.write('data: [DONE]\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ model: 'm', message: { role: 'assistant', content: 'hi' }, done: false })}\n`);
        const last = `${JSON.stringify({ model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 1, eval_count: 1 })}\n`;
        if (endBody) res.end(last);
        else res.write(last);
      }
    });
  });
  server.on('connection', (socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => requests,
    open: () => open.size,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const providers = {
  'OpenAI-compatible': { answer: 'sse' as const, make: (origin: string) => createOpenAICompatibleProvider({ id: 'ggufserver', model: 'm', baseURL: `${origin}/v1`, maxRetries: 0 }) },
  localrunner: { answer: 'ndjson' as const, make: (origin: string) => new LocalRunnerProvider({ baseUrl: origin, model: 'm', numCtx: 4096, temperature: 0, keepAlive: '5m', maxRetries: 0 }) },
};

describe('provider connections are kept between requests', () => {
  for (const [name, p] of Object.entries(providers)) {
    describe(name, () => {
      /** Runs `test` with a fresh counting server (see countingServer) and a provider pointed at it. */
      const withServer = async (
        options: { endBody?: boolean; drop?: 'none' | 'reused' | 'after-first' },
        test: (server: Awaited<ReturnType<typeof countingServer>>, answer: () => Promise<string>) => Promise<void>,
      ) => {
        const server = await countingServer(p.answer, options.endBody ?? true, options.drop ?? 'none');
        const provider = p.make(server.origin);
        try {
          await test(server, async () => textOf(await collect(provider.streamChat(chat()))));
        } finally {
          await server.close();
        }
      };

      it('three answers read to their end marker go over one connection', () =>
        withServer({}, async (server, answer) => {
          for (let i = 0; i < 3; i++) assert.equal(await answer(), 'hi');
          assert.equal(server.connections(), 1, 'one connection, kept alive');
        }));

      it('a kept connection the server dropped: the request goes once more on a new connection', () =>
        withServer({ drop: 'reused' }, async (server, answer) => {
          assert.equal(await answer(), 'hi');
          assert.equal(await answer(), 'hi');
          assert.equal(server.connections(), 2);
          assert.equal(server.requests(), 3, 'the dropped request was sent again, once');
        }));

      it('a new connection dropped too is an error, not a second resend', () =>
        withServer({ drop: 'after-first' }, async (server, answer) => {
          assert.equal(await answer(), 'hi');
          await assert.rejects(answer(), /connection|reset|hang up/i);
          assert.equal(server.requests(), 3, 'the first, its resend on a new connection, and no more');
        }));

      it('a body that does not end after its end marker: the answer completes and that connection is closed', () =>
        withServer({ endBody: false }, async (server, answer) => {
          const t0 = performance.now();
          assert.equal(await answer(), 'hi');
          assert.ok(performance.now() - t0 < 5_000, 'the wait for the end is bounded');
          for (let i = 0; i < 100 && server.open() > 0; i++) await new Promise((r) => setTimeout(r, 10));
          assert.equal(server.open(), 0, 'the connection left hanging was closed');
          assert.equal(await answer(), 'hi');
          assert.equal(server.connections(), 2, 'the next request opened a new one');
        }));
    });
  }
});

describe('releaseBody', () => {
  /**
   * A body over `items` (then done, or never done) that behaves like a stream's iterator: a read left waiting fails
   * once the connection is abandoned. Records return() and abandon().
   */
  const body = (items: unknown[], ends: boolean) => {
    const seen = { returned: false, abandoned: false };
    let fail: ((e: Error) => void) | undefined;
    let i = 0;
    const it: AsyncIterator<unknown> = {
      next: () =>
        i < items.length
          ? Promise.resolve({ done: false, value: items[i++] })
          : ends
            ? Promise.resolve({ done: true, value: undefined })
            : new Promise((_, reject) => (fail = reject)),
      return: () => {
        seen.returned = true;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
    const abandon = () => {
      seen.abandoned = true;
      fail?.(new Error('aborted'));
    };
    return { it, seen, abandon };
  };

  it('reads on to the end of a finished answer and neither abandons nor closes it', async () => {
    const b = body(['\n'], true);
    await releaseBody(b.it, true, b.abandon);
    assert.deepEqual(b.seen, { returned: false, abandoned: false });
  });

  it('closes at once when the reading stopped early, and after the grace when no end comes', async () => {
    const early = body(['more'], true);
    await releaseBody(early.it, false, early.abandon);
    assert.deepEqual(early.seen, { returned: true, abandoned: false }, 'no read is waiting: closing the body closes the connection');
    const hanging = body([], false);
    await releaseBody(hanging.it, true, hanging.abandon);
    assert.deepEqual(hanging.seen, { returned: true, abandoned: true });
  });

  it('closes when more than a trailer comes after the end marker, or the read fails', async () => {
    const chatty = body(Array.from({ length: 10 }, () => 'data'), true);
    await releaseBody(chatty.it, true, chatty.abandon);
    assert.deepEqual(chatty.seen, { returned: true, abandoned: true });
    let abandoned = false;
    await releaseBody({ next: () => Promise.reject(new Error('reset')) }, true, () => (abandoned = true));
    assert.equal(abandoned, true);
  });
});
