import assert from 'node:assert/strict';
import { makeWorkspace, runCli } from '../../helpers/runtime-process';
import { startOpenAIStub, type OpenAIStub } from '../../stubs/openai-stub';

describe('agentcli --no-project-config', function () {
  this.timeout(30_000);
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub();
  });
  after(() => stub.close());

  // async: the stub answers from this process
  const run = (cwd: string, ...flags: string[]) => runCli([...flags, '-p', 'hello'], cwd);

  it('reads the folder\'s .agentcli/config.json by default and ignores it with the flag', async () => {
    const cwd = makeWorkspace({}, stub.origin); // project config: provider ggufserver at the stub
    stub.enqueue({ text: 'hi from the stub' });
    const plain = await run(cwd);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /hi from the stub/);
    const before = stub.requests.length;
    const skipped = await run(cwd, '--no-project-config');
    assert.equal(stub.requests.length, before, 'no request reached the server the project file names');
    assert.equal(skipped.code, 2, 'the default provider (serviceai) has no key: a configuration error');
    assert.match(skipped.stderr, /serviceai\./, 'the error is about the default provider, not the one the project file names');
  });
});
