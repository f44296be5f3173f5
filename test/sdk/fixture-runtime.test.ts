import assert from 'node:assert/strict';
import path from 'node:path';
import { Agent, InvalidEventError, ProtocolError, RpcErrorCode, RuntimeClient, type ExitInfo, type RuntimeClientOptions } from '../../src/sdk';
import { makeTempDir } from '../helpers/temp-dir';

const FAKE = path.join(__dirname, 'fixtures', 'fake-runtime.ts');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stop escalation and protocol-breaking events, against a runtime double that can misbehave on purpose. */
describe('sdk lifecycle and protocol errors against a runtime double', function () {
  this.timeout(30_000);
  const cwd = makeTempDir('sdk-fixture-');
  const stderr: string[] = [];
  const options = (behaviour: string, extra: Partial<RuntimeClientOptions> = {}): RuntimeClientOptions => ({
    cwd,
    cliPath: FAKE,
    nodeArgs: ['--require', require.resolve('tsx/cjs')],
    env: { FAKE_RUNTIME: behaviour },
    onStderr: (line) => stderr.push(line),
    ...extra,
  });
  let agent: Agent | undefined;
  let client: RuntimeClient | undefined;
  beforeEach(() => (stderr.length = 0));
  afterEach(async () => {
    await agent?.close();
    await client?.stop();
    agent = undefined;
    client = undefined;
  });

  it('close() escalates to SIGKILL after the grace period when the runtime ignores stdin closing and SIGTERM; twice is safe', async () => {
    const grace = 300;
    agent = await Agent.create(options('stubborn', { stopGraceMs: grace }));
    const pid = agent.client.pid!;
    const exits: ExitInfo[] = [];
    agent.client.onExit((info) => exits.push(info));
    const t0 = performance.now();
    const first = agent.close();
    const second = agent.close();
    assert.equal(first, second, 'the second close() joins the first');
    await first;
    const elapsed = performance.now() - t0;
    assert.ok(elapsed >= 2 * grace - 20, `stdin close and SIGTERM each got the grace period (took ${elapsed.toFixed(0)} ms)`);
    assert.ok(elapsed < 2 * grace + 5_000, `then SIGKILL ended it (took ${elapsed.toFixed(0)} ms)`);
    assert.deepEqual(exits.map((e) => e.signal), ['SIGKILL']);
    assert.ok(stderr.includes('SIGTERM ignored'), 'SIGTERM was tried before SIGKILL');
    assert.equal(isAlive(pid), false);
    await agent.close();
    assert.equal(exits.length, 1);
  });

  it('a malformed agent_end fails the run at once with InvalidEventError (not at the silence timeout) and aborts it', async () => {
    const traced: unknown[] = [];
    client = new RuntimeClient(options('invalid-agent-end', { onTrace: (_dir, msg) => traced.push(msg) }));
    await client.start();
    const t0 = performance.now();
    const seen: string[] = [];
    const streamed = (async () => {
      for await (const e of client!.streamPrompt({ message: 'hi' })) seen.push(e.type);
    })();
    await assert.rejects(streamed, (e: unknown) => {
      assert.ok(e instanceof InvalidEventError);
      assert.ok(e instanceof ProtocolError);
      assert.equal(e.code, RpcErrorCode.InvalidParams);
      assert.equal(e.eventType, 'agent_end');
      assert.equal(e.runId, 'run-fake-1');
      assert.match(e.message, /invalid "agent_end" event: .*status/);
      assert.match(e.message, /text/);
      return true;
    });
    assert.ok(performance.now() - t0 < 5_000, 'failed promptly');
    assert.deepEqual(seen, ['agent_start']);
    assert.ok(traced.some((m) => typeof m === 'object' && m !== null && 'invalidEvent' in m), 'still reported via the trace');
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(stderr.includes('abort received'), 'the run was aborted in the runtime');
    assert.equal(client.isRunning, true, 'the client stays usable');
  });

  it('through an Agent the run rejects with InvalidEventError and the next run starts', async () => {
    agent = await Agent.create(options('invalid-agent-end'));
    await assert.rejects(agent.run('hi'), (e: unknown) => e instanceof InvalidEventError && e.runId === 'run-fake-1');
    await assert.rejects(agent.run('again'), (e: unknown) => e instanceof InvalidEventError && e.runId === 'run-fake-2');
  });
});
