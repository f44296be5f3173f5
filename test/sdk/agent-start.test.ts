import assert from 'node:assert/strict';
import { Agent, RuntimeStartError } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** Requires the built runtime (`npm run build`; done here when dist is missing or stale). */
describe('sdk Agent.create: skills and system prompts are checked at start', function () {
  const t = useStubAndAgent(this);
  const systemMessage = (): string => t.stub.requests.find((r) => r.path.endsWith('/chat/completions'))!.body.messages[0].content;

  it('an unknown skill rejects Agent.create with RuntimeStartError carrying the runtime message', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    await assert.rejects(Agent.create(testAgentOptions(cwd, { skills: ['missing'] })), (e: unknown) => {
      assert.ok(e instanceof RuntimeStartError, String(e));
      assert.match(e.message, /skill "missing" not found: looked in/);
      return true;
    });
    assert.equal(t.stub.requests.length, 0);
  });

  it('instructions naming an existing non-prompt file are sent as text; a prompt file is sent as its content', async () => {
    const cwd = makeWorkspace({ 'package.json': '{"name":"do-not-send"}', 'persona.md': 'PERSONA FILE' }, t.stub.origin);
    t.stub.enqueue({ text: 'ok' });
    const agent = await t.create(testAgentOptions(cwd, { systemPrompt: 'persona.md', instructions: 'package.json' }));
    await agent.run('hi');
    assert.equal(systemMessage(), 'PERSONA FILE\n\npackage.json');
  });

  it('path-like instructions naming no file are refused, naming the instructions option', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    await assert.rejects(Agent.create(testAgentOptions(cwd, { instructions: 'personas/pirate.md' })), /instructions "personas\/pirate.md" .* not found/);
  });
});
