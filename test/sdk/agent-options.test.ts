import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, InvalidArgumentError } from '../../src/sdk';
import { startServiceAiStub } from '../stubs/serviceai-stub';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

/** The runtime's command line, as the OS sees it. */
const cmdline = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

/** Agent.create options reach the real runtime and the model (asserted on the stub's recorded requests). */
describe('sdk Agent.create options against the real runtime', function () {
  const t = useStubAndAgent(this);
  const systemMessage = (i = 0): string => {
    const messages = t.stub.requests[i]!.body.messages as Array<{ role: string; content: string }>;
    assert.equal(messages[0]!.role, 'system');
    return messages[0]!.content;
  };

  it('systemPrompt (file), appendSystemPrompt, instructions and skills build the system message, in that order', async () => {
    const cwd = makeWorkspace(
      { 'prompts/system.md': 'SYSTEM-FROM-FILE\n', '.agentcli/skills/reviewer.md': 'SKILL-REVIEWER-BODY\n' },
      t.stub.origin,
    );
    const agent = await t.create(
      testAgentOptions(cwd, {
        systemPrompt: './prompts/system.md',
        appendSystemPrompt: 'APPENDED-TEXT',
        instructions: 'You are PERSONA-X.',
        skills: ['reviewer'],
      }),
    );
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    const system = systemMessage();
    assert.ok(system.startsWith('SYSTEM-FROM-FILE'), `the file replaced the default prompt: ${system.slice(0, 80)}`);
    const order = ['SYSTEM-FROM-FILE', 'APPENDED-TEXT', 'You are PERSONA-X.', '# Skill: reviewer', 'SKILL-REVIEWER-BODY'].map((m) => system.indexOf(m));
    assert.ok(order.every((at) => at >= 0), `every part is present: ${system}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'in order');
  });

  it('without systemPrompt, instructions are appended to the default prompt', async () => {
    const agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { instructions: 'PERSONA-ONLY' }));
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    const system = systemMessage();
    assert.ok(system.endsWith('PERSONA-ONLY'), system.slice(-80));
    assert.ok(system.length > 'PERSONA-ONLY'.length + 100, 'the default prompt is kept');
  });

  it('SERVICE_MODEL is the fallback for model; the model option wins over it', async () => {
    let agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { env: { SERVICE_MODEL: 'model-from-env' } }));
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    assert.equal(t.stub.requests[0]!.body.model, 'model-from-env');
    assert.equal(agent.info.model, 'model-from-env');
    await agent.close();

    agent = await t.create(
      testAgentOptions(makeWorkspace({}, t.stub.origin), { model: 'model-from-option', env: { SERVICE_MODEL: 'model-from-env' } }),
    );
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    assert.equal(t.stub.requests[1]!.body.model, 'model-from-option');
  });

  it('maxIterations bounds the loop: the run stops with max_iterations', async () => {
    const agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { maxIterations: 2 }));
    const listing = { toolCalls: [{ name: 'list_files', arguments: {} }] };
    t.stub.enqueue(listing, listing, listing, { text: 'never asked' });
    const result = await agent.run('look');
    assert.equal(result.status, 'stopped');
    assert.equal(result.stoppedReason, 'max_iterations');
    assert.equal(t.stub.requests.length, 2);
  });

  it('permissionMode reaches the runtime', async () => {
    const agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { permissionMode: 'restricted' }));
    assert.equal(agent.info.permissionMode, 'restricted');
    assert.equal((await agent.getState()).permissionMode, 'restricted');
  });

  it('debug turns on the runtime debug log (the provider requests on stderr)', async () => {
    const lines: string[] = [];
    let agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { debug: true, onStderr: (l) => lines.push(l), onTrace: () => {} }));
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    assert.ok(lines.some((l) => l.includes('POST') && l.includes(t.stub.origin)), lines.join('\n'));
    await agent.close();

    lines.length = 0;
    agent = await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin), { onStderr: (l) => lines.push(l) }));
    t.stub.enqueue({ text: 'ok' });
    await agent.run('hi');
    assert.equal(lines.some((l) => l.includes('POST')), false, 'no debug log without debug');
  });

  it('loopType is forwarded as --loop-type; an unknown one is refused before starting; every strategy starts', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const agent = await t.create(testAgentOptions(cwd, { loopType: 'react' }));
    const args = cmdline(agent.client.pid!);
    assert.equal(args[args.indexOf('--loop-type') + 1], 'react');
    await assert.rejects(
      Agent.create(testAgentOptions(cwd, { loopType: 'zigzag' as 'react' })),
      (e: unknown) => e instanceof InvalidArgumentError && /loopType must be one of react, plan-and-execute/.test(e.message),
    );
    const reflexion = await t.create(testAgentOptions(cwd, { loopType: 'reflexion' }));
    const reflexionArgs = cmdline(reflexion.client.pid!);
    assert.equal(reflexionArgs[reflexionArgs.indexOf('--loop-type') + 1], 'reflexion');
    assert.deepEqual(reflexion.client.initialized?.capabilities.loopTypes, ['react', 'plan-and-execute', 'parallel', 'reflexion']);
  });

  it('apiKey reaches the runtime as SERVICE_API_KEY in its environment, never on its command line', async () => {
    const service = await startServiceAiStub();
    let agent: Agent | undefined;
    try {
      service.addKey('key-from-option', 'Pro');
      service.enqueueChat({ text: 'authenticated' });
      const cwd = makeWorkspace({}, t.stub.origin);
      agent = await t.create(
        testAgentOptions(cwd, {
          apiKey: 'key-from-option',
          env: { SERVICE_PROVIDER: 'serviceai', SERVICE_BASE_URL: service.origin, SERVICE_API_KEY: 'key-from-env', SERVICE_AI_API_KEY: undefined },
        }),
      );
      assert.equal(cmdline(agent.client.pid!).some((a) => a.includes('key-from-option')), false);
      const result = await agent.run('hi');
      assert.equal(result.text, 'authenticated');
      const chat = service.requests.find((r) => r.path.endsWith('/chat/completions'));
      assert.equal(chat?.headers.authorization, 'Bearer key-from-option', 'the option overrides SERVICE_API_KEY of env');
      await assert.rejects(Agent.create(testAgentOptions(cwd, { apiKey: ' ' })), InvalidArgumentError);
    } finally {
      await agent?.close();
      await service.close();
    }
  });
});
