import { strict as assert } from 'node:assert';
import { RuntimeClient } from '../../src/sdk/client';
import { decide, InvalidDecisionParamsError, type DecisionClient } from '../../src/sdk/decide';
import { Agent } from '../../src/sdk';
import { SdkError } from '../../src/sdk/errors';
import { startServiceAiStub, type ServiceAiStub } from '../stubs/serviceai-stub';
import { BUILT_CLI, ensureRuntimeBuilt } from './helpers';
import { makeTempDir } from '../helpers/temp-dir';

describe('SDK decide()', () => {
  describe('through a running runtime', () => {
    let stub: ServiceAiStub;
    let client: RuntimeClient;
    before(async function () {
      this.timeout(120_000);
      ensureRuntimeBuilt();
      stub = await startServiceAiStub();
      stub.addKey('key-sdk', 'Pro');
      const cwd = makeTempDir('sdk-decide-');
      client = new RuntimeClient({
        cwd,
        cliPath: BUILT_CLI,
        env: {
          HOME: makeTempDir('sdk-decide-home-'),
          SERVICE_PROVIDER: 'serviceai',
          SERVICE_BASE_URL: stub.origin,
          SERVICE_API_KEY: 'key-sdk',
          SERVICE_AI_API_KEY: undefined,
          SERVICE_MODEL: undefined,
          SERVICE_DEBUG: undefined,
        },
      });
      await client.start();
    });
    after(async () => {
      await client?.stop();
      await stub?.close();
    });

    it('answers all three kinds with typed results', async () => {
      const yesNo = await decide(client, { kind: 'noul', question: 'Release today?' });
      assert.deepEqual([yesNo.answer, yesNo.probabilities.yes], ['yes', 0.72]);
      const pick = await decide(client, { kind: 'choice', question: 'Which owner?', options: ['web', 'api'] });
      assert.equal(pick.answer, 'web');
      assert.deepEqual(Object.keys(pick.probabilities), ['web', 'api']);
      const score = await decide(client, { kind: 'score', question: 'Risk?', scale: { min: 1, max: 4 } });
      assert.equal(score.answer, 4);
      assert.equal(typeof score.answer, 'number');
      const sent = stub.requests.filter((r) => r.path === '/v1/decisions').map((r) => r.body.kind);
      assert.deepEqual(sent, ['noul', 'choice', 'score']);
    });

    it('a malformed service answer rejects with the runtime error naming the problem and remedy', async () => {
      stub.enqueueDecision({ kind: 'noul', answer: 'yes', probabilities: { yes: 0.2 } });
      await assert.rejects(decide(client, { kind: 'noul', question: 'q?' }), (e: Error) => {
        assert.match(e.message, /malformed noul answer: no probability for "no"/);
        assert.match(e.message, /Remedy: retry/);
        return true;
      });
    });

    it('is offered on the Agent too', async () => {
      const agent = await Agent.create({
        cwd: makeTempDir('sdk-decide-agent-'),
        cliPath: BUILT_CLI,
        env: {
          HOME: makeTempDir('sdk-decide-home-'),
          SERVICE_PROVIDER: 'serviceai',
          SERVICE_BASE_URL: stub.origin,
          SERVICE_API_KEY: 'key-sdk',
          SERVICE_AI_API_KEY: undefined,
          SERVICE_MODEL: undefined,
        },
      });
      try {
        const pick = await agent.decide({ kind: 'choice', question: 'Which owner?', options: ['web', 'api'] });
        assert.equal(pick.answer, 'web');
      } finally {
        await agent.close();
      }
    });

    it('is a typed method of RuntimeClient, checking params the same way', async () => {
      const yesNo = await client.decide({ kind: 'noul', question: 'Ship it?' });
      const answer: 'yes' | 'no' = yesNo.answer;
      assert.equal(answer, 'yes');
      assert.equal(yesNo.probabilities.no, 0.28);
      const before = stub.requests.length;
      await assert.rejects(client.decide({ kind: 'choice', question: 'q', options: ['a'] }), InvalidDecisionParamsError);
      assert.equal(stub.requests.length, before);
    });

    it('invalid params are refused before any request', async () => {
      const before = stub.requests.length;
      await assert.rejects(
        decide(client, { kind: 'choice', question: 'q', options: ['a'] }),
        (e: unknown) => e instanceof InvalidDecisionParamsError && /a choice needs 2 to 20 options/.test(e.message),
      );
      assert.equal(stub.requests.length, before);
    });
  });

  it('rejects a result of another kind than asked (a confused runtime)', async () => {
    const fake: DecisionClient = {
      request: () => Promise.resolve({ kind: 'noul', model: 'weka', answer: 'no', probabilities: { yes: 0.1, no: 0.9 } }),
    };
    await assert.rejects(decide(fake, { kind: 'score', question: 'q' }), (e: unknown) => e instanceof SdkError && /"noul" decision to a "score" request/.test(e.message));
  });
});
