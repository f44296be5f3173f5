import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, testEnv } from '../../helpers/runtime-process';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';
import { makeTempDir } from '../../helpers/temp-dir';

describe('the session output folder (full command output)', function () {
  this.timeout(30_000);
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub();
  });
  after(() => stub.close());

  const sessions = (tmp: string) => {
    const root = path.join(tmp, 'agentcli-output');
    return existsSync(root) ? readdirSync(root) : [];
  };

  it('is not left behind by a session that ran no command', async () => {
    const tmp = makeTempDir('agentcli-tmp-');
    stub.enqueue({ text: 'just talking' });
    const r = await runCli(['-p', 'hi'], makeWorkspace({}, stub.origin), testEnv({ TMPDIR: tmp }));
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(sessions(tmp), []);
  });

  it('keeps the full output of a command whose output the model saw cut, after the session', async () => {
    const tmp = makeTempDir('agentcli-tmp-');
    stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'seq 1 20000' } }] }, { text: 'ran it' });
    // A realistic window: the cut output (~5,000 tokens) would pass 80% of the stub provider's default 4,096 and compact.
    const cwd = makeWorkspace({}, stub.origin, { ggufserver: { baseUrl: stub.origin, contextSize: 32768 } });
    const r = await runCli(['--yolo', '-p', 'run it'], cwd, testEnv({ TMPDIR: tmp }));
    assert.equal(r.code, 0, r.stderr);
    const [session] = sessions(tmp);
    assert.ok(session !== undefined, 'the session folder exists');
    const logs = readdirSync(path.join(tmp, 'agentcli-output', session));
    assert.equal(logs.length, 1);
    assert.ok(logs[0]!.endsWith('.log'));
  });
});
