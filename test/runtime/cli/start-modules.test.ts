import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';
import { startOpenAIStub } from '../../stubs/openai-stub';

/** Built-in modules a `-p` run needs only after its first request, if at all (each costs 1-5 ms of every start). */
const NOT_BEFORE_THE_FIRST_REQUEST = ['fs/promises', 'internal/readline/interface', 'child_process', 'zlib', 'crypto', 'worker_threads'];

describe('agentcli start: what loads before the first model request', function () {
  this.timeout(30_000);

  it('a -p run with its code cache in place sends its first request before loading fs/promises, readline, child_process, zlib, crypto or workers', async () => {
    const stub = await startOpenAIStub({ fallback: () => ({ text: 'done' }) });
    try {
      const out = path.join(makeTempDir('agentcli-probe-'), 'modules.txt');
      const env = testEnv({ XDG_CACHE_HOME: makeTempDir('agentcli-cache-') });
      const cwd = makeWorkspace({ 'hello.txt': 'hello\n' }, stub.origin);
      const args = ['--bare', '-p', 'Say done.', '--yolo'];
      assert.equal((await runCli(args, cwd, env)).code, 0, 'the first run unpacks the body and writes its code cache');
      const probe = path.resolve(__dirname, '../../helpers/first-request-probe.cjs');
      const run = await runCli(args, cwd, { ...env, NODE_OPTIONS: `--require ${probe}`, AGENTCLI_PROBE_OUT: out });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /done/);
      const loaded = new Set(readFileSync(out, 'utf8').split('\n'));
      assert.ok(loaded.has('http'), 'the probe saw the request');
      assert.deepEqual(NOT_BEFORE_THE_FIRST_REQUEST.filter((m) => loaded.has(m)), [], 'loaded before the first request');
    } finally {
      await stub.close();
    }
  });
});
