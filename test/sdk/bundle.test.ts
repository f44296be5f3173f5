import assert from 'node:assert/strict';
import path from 'node:path';
import { startOpenAIStub } from '../stubs/openai-stub';
import { ensureRuntimeBuilt, makeWorkspace, testAgentOptions } from './helpers';

/** The published entry point (`agentcli/sdk` → dist/sdk.js) finds the bundled CLI next to itself. */
describe('sdk bundle (dist/sdk.js)', function () {
  this.timeout(60_000);
  before(() => ensureRuntimeBuilt());

  it('runs a prompt with the bundled runtime and no cliPath', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- load the built bundle, not the sources
    const sdk = require(path.resolve(__dirname, '../../dist/sdk.js')) as typeof import('../../src/sdk');
    const stub = await startOpenAIStub({ replies: [{ text: 'from the bundle' }] });
    const { cliPath: _ignored, ...options } = testAgentOptions(makeWorkspace({}, stub.origin));
    const agent = await sdk.Agent.create({ ...options, env: { ...options.env, SERVICE_CLI_PATH: undefined } });
    try {
      const result = await agent.run('hi');
      assert.equal(result.text, 'from the bundle');
      assert.ok(agent.client.isRunning);
      assert.equal(typeof sdk.isStepCount, 'function');
      assert.ok(new sdk.RuntimeExitedError(1, null, []) instanceof sdk.SdkError);
    } finally {
      await agent.close();
      await stub.close();
    }
  });
});
