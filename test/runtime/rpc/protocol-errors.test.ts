import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { PROTOCOL_VERSION, RpcErrorCode } from '../../../src/protocol';
import { CLI, makeWorkspace, startRuntime, testEnv } from '../../helpers/runtime-process';

/** Sends raw lines and collects the response lines. */
async function rawExchange(lines: string[], expected: number): Promise<Array<Record<string, unknown>>> {
  const cwd = makeWorkspace({});
  const proc = spawn(process.execPath, [CLI, '--mode', 'rpc'], { cwd, env: testEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Array<Record<string, unknown>> = [];
  let buf = '';
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${out.length} of ${expected} responses: ${JSON.stringify(out)}`)), 10000);
    proc.stdout.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const msg = JSON.parse(line) as Record<string, unknown>;
        if (msg.method === 'event') continue;
        out.push(msg);
        if (out.length === expected) {
          clearTimeout(timer);
          resolve();
        }
      }
    });
  });
  for (const l of lines) proc.stdin.write(l + '\n');
  await done;
  proc.stdin.end();
  await new Promise((r) => proc.once('exit', r));
  return out;
}

describe('runtime rpc: malformed input', () => {
  it('answers bad JSON, invalid requests, unknown methods and bad params with the right codes, and keeps running', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION } });
    const responses = await rawExchange(
      [
        '{not json',
        JSON.stringify({ id: 2, method: 'getState' }),
        JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'getState' }]),
        JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'getState', params: {} }),
        init,
        JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'noSuchMethod', params: {} }),
        JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'decideChanges', params: { batchId: 'b', decision: 'accept_selected' } }),
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompt', params: { message: 42 } }),
        JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'getState', params: {} }),
      ],
      9,
    );
    const byId = (id: unknown) => responses.find((r) => r.id === id) as { error?: { code: number; message: string }; result?: unknown };
    const nullIds = responses.filter((r) => r.id === null).map((r) => (r.error as { code: number }).code);
    assert.deepEqual(nullIds.sort(), [RpcErrorCode.ParseError, RpcErrorCode.InvalidRequest].sort());
    assert.equal(byId(2).error?.code, RpcErrorCode.InvalidRequest);
    assert.equal(byId(4).error?.code, RpcErrorCode.NotInitialized);
    assert.ok(byId(1).result);
    assert.equal(byId(5).error?.code, RpcErrorCode.MethodNotFound);
    assert.match(byId(5).error!.message, /noSuchMethod/);
    assert.equal(byId(6).error?.code, RpcErrorCode.InvalidParams);
    assert.match(byId(6).error!.message, /"changeIds": accept_selected needs at least one change id/);
    assert.equal(byId(7).error?.code, RpcErrorCode.InvalidParams);
    assert.match(byId(7).error!.message, /"message"/);
    assert.ok(byId(8).result, 'still serving after bad input');
  });

  it('rejects an oversized line with -32600 and keeps serving', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'prompt', params: { message: 'x'.repeat(17 * 1024 * 1024) } });
    const responses = await rawExchange(
      [big, JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION } })],
      2,
    );
    const err = responses.find((r) => r.id === null) as { error: { code: number; message: string } };
    assert.equal(err.error.code, RpcErrorCode.InvalidRequest);
    assert.match(err.error.message, /exceeds the limit/);
    assert.ok(responses.find((r) => r.id === 10 && r.result));
  });
});

describe('runtime rpc: handshake', () => {
  it('returns protocol version, runtime version and capabilities', async () => {
    const rt = await startRuntime(makeWorkspace({}), { initialize: false });
    try {
      const init = await rt.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientInfo: { name: 'test', version: '0' } });
      assert.equal(init.protocolVersion, PROTOCOL_VERSION);
      assert.match(init.runtimeVersion, /^\d+\.\d+\.\d+/);
      assert.ok(init.capabilities.tools.includes('read_file'));
      assert.deepEqual(init.capabilities.loopTypes, ['react', 'plan-and-execute', 'parallel', 'reflexion']);
    } finally {
      await rt.close();
    }
  });

  it('refuses an incompatible protocol version with a clear error', async () => {
    const rt = await startRuntime(makeWorkspace({}), { initialize: false });
    try {
      await assert.rejects(rt.request('initialize', { protocolVersion: '1.0' }), (e: { code: number; message: string }) => {
        assert.equal(e.code, RpcErrorCode.ProtocolVersionMismatch);
        assert.match(e.message, /1\.0 is not compatible with this runtime's 2\.0/);
        return true;
      });
    } finally {
      await rt.close();
    }
  });
});
