import assert from 'node:assert/strict';
import { Agent, RuntimeStartError } from '../../src/sdk';
import { startOpenAIStub, type OpenAIStub } from '../stubs/openai-stub';
import { ensureRuntimeBuilt, makeWorkspace, testAgentOptions } from './helpers';

/** Requires the built runtime (`npm run build`; done here when dist is missing or stale). */
describe('sdk Agent.create: skills and system prompts are checked at start', function () {
  this.timeout(60_000);
  let stub: OpenAIStub;
  let agent: Agent | undefined;
  before(() => ensureRuntimeBuilt());
  beforeEach(async () => {
    stub = await startOpenAIStub();
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await stub.close();
  });
  const systemMessage = (): string => stub.requests.find((r) => r.path.endsWith('/chat/completions'))!.body.messages[0].content;

  it('an unknown skill rejects Agent.create with RuntimeStartError carrying the runtime message', async () => {
    const cwd = makeWorkspace({}, stub.origin);
    await assert.rejects(Agent.create(testAgentOptions(cwd, { skills: ['missing'] })), (e: unknown) => {
      assert.ok(e instanceof RuntimeStartError, String(e));
      assert.match(e.message, /skill "missing" not found: looked in/);
      return true;
    });
    assert.equal(stub.requests.length, 0);
  });

  it('instructions naming an existing non-prompt file are sent as text; a prompt file is sent as its content', async () => {
    const cwd = makeWorkspace({ 'package.json': '{"name":"do-not-send"}', 'persona.md': 'PERSONA FILE' }, stub.origin);
    stub.enqueue({ text: 'ok' });
    agent = await Agent.create(testAgentOptions(cwd, { systemPrompt: 'persona.md', instructions: 'package.json' }));
    await agent.run('hi');
    assert.equal(systemMessage(), 'PERSONA FILE\n\npackage.json');
  });
});
