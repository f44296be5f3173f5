import assert from 'node:assert/strict';
import path from 'node:path';
import {
  InvalidArgumentError,
  InvalidResponseError,
  ProtocolVersionError,
  RequestTimeoutError,
  RuntimeClient,
  RuntimeExitedError,
  RuntimeNotRunningError,
  RuntimeStartError,
  type RuntimeClientOptions,
} from '../../src/sdk';
import { makeTempDir } from '../helpers/temp-dir';

const FAKE = path.join(__dirname, 'fixtures', 'fake-runtime.ts');

/** The client's failure paths, against a runtime double (the real-runtime tests cover the happy paths). */
describe('sdk RuntimeClient failure paths', () => {
  const cwd = makeTempDir('sdk-fake-');
  let client: RuntimeClient | undefined;
  const fake = (behaviour: string, extra: Partial<RuntimeClientOptions> = {}) =>
    (client = new RuntimeClient({ cwd, cliPath: FAKE, nodeArgs: ['--require', require.resolve('tsx/cjs')], env: { FAKE_RUNTIME: behaviour }, ...extra }));
  afterEach(async () => {
    await client?.stop();
    client = undefined;
  });

  it('a runtime refusing the protocol version gives ProtocolVersionError', async () => {
    await assert.rejects(fake('mismatch').start(), (e: unknown) => {
      assert.ok(e instanceof ProtocolVersionError);
      assert.equal(e.code, -32003);
      assert.equal(e.runtimeVersion, '9.0');
      assert.match(e.message, /same release/);
      return true;
    });
    assert.equal(client!.isRunning, false);
  });

  it('a runtime answering an incompatible version gives ProtocolVersionError', async () => {
    await assert.rejects(fake('old').start(), (e: unknown) => e instanceof ProtocolVersionError && e.runtimeVersion === '0.3');
  });

  it('a runtime that dies during the handshake gives RuntimeStartError with its stderr', async () => {
    await assert.rejects(fake('crash').start(), (e: unknown) => {
      assert.ok(e instanceof RuntimeStartError);
      assert.match(e.message, /exit code 3/);
      assert.match(e.message, /unexpected token at line 3/);
      assert.ok(e.cause instanceof RuntimeExitedError);
      return true;
    });
  });

  it('a missing node executable gives RuntimeStartError naming it', async () => {
    await assert.rejects(fake('ok', { nodePath: '/nonexistent/node' }).start(), (e: unknown) => e instanceof RuntimeStartError && /nodePath/.test(e.message));
  });

  it('checks params before sending and validates results', async () => {
    const c = fake('ok');
    await c.start();
    assert.equal(c.initialized?.sessionId, 'sess-fake');
    await assert.rejects(c.request('setModel', { model: '' }), (e: unknown) => e instanceof InvalidArgumentError && /model/.test(e.message));
    await assert.rejects(c.decideChanges({ batchId: 'b', decision: 'accept_selected' }), /accept_selected needs at least one change id/);
    await assert.rejects(c.getState(), (e: unknown) => e instanceof InvalidResponseError && /getState/.test(e.message));
  });

  it('a request without an answer times out with RequestTimeoutError', async () => {
    const c = fake('ok', { timeout: 300 });
    await c.start();
    await assert.rejects(c.getContextUsage(), (e: unknown) => {
      assert.ok(e instanceof RequestTimeoutError);
      assert.equal(e.method, 'getContextUsage');
      assert.equal(e.timeoutMs, 300);
      return true;
    });
  });

  it('a runtime killed mid-run fails the pending run and its stream with RuntimeExitedError', async () => {
    const c = fake('die-on-prompt');
    await c.start();
    const exits: Array<string | null> = [];
    c.onExit((info) => exits.push(info.signal));
    const pendingCall = c.getContextUsage();
    const events: string[] = [];
    const streamed = (async () => {
      for await (const e of c.streamPrompt({ message: 'hi' })) events.push(e.type);
    })();
    await assert.rejects(streamed, (e: unknown) => e instanceof RuntimeExitedError && e.signal === 'SIGKILL');
    await assert.rejects(pendingCall, RuntimeExitedError);
    await assert.rejects(c.getState(), RuntimeExitedError);
    assert.deepEqual(exits, ['SIGKILL']);
    assert.equal(c.isRunning, false);
  });

  it('methods before start or after stop fail with RuntimeNotRunningError; stop twice is safe', async () => {
    const c = fake('ok');
    await assert.rejects(c.getState(), RuntimeNotRunningError);
    assert.equal(c.setSystemPrompt('x').appendSystemPrompt('y'), c, 'chainable before start');
    await c.start();
    assert.throws(() => c.setSystemPrompt('late'), /before start/);
    await Promise.all([c.stop(), c.stop()]);
    await c.stop();
    await assert.rejects(c.getState(), RuntimeNotRunningError);
    await assert.rejects(c.start(), RuntimeNotRunningError);
  });
});
