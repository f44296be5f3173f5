import { strict as assert } from 'node:assert';
import { InvalidDecisionRequest, requestDecision } from '../../../src/runtime/decisions/client';
import { formatDecision } from '../../../src/runtime/decisions/format';
import { ProviderError } from '../../../src/runtime/providers/types';
import { startServiceAiStub, type ServiceAiStub } from '../../stubs/serviceai-stub';
import { config } from '../providers/helpers';

describe('typed decisions (POST /v1/decisions)', () => {
  let stub: ServiceAiStub;
  beforeEach(async () => {
    stub = await startServiceAiStub();
    stub.addKey('key-pro', 'Pro');
    stub.addKey('key-free', 'Free');
  });
  afterEach(async () => {
    await stub.close();
  });

  const cfg = (apiKey = 'key-pro') => config({ serviceai: { baseUrl: stub.origin, apiKey } });
  const failure = async (p: Promise<unknown>): Promise<ProviderError> => {
    try {
      await p;
    } catch (e) {
      assert.ok(e instanceof ProviderError, String(e));
      return e;
    }
    throw new Error('expected a ProviderError');
  };

  it('noul: yes/no with probabilities; request carries model weka, kind, question, context and the Bearer key', async () => {
    const result = await requestDecision(cfg(), { kind: 'noul', question: 'Ship release 2.4 today?', context: 'all checks green' });
    assert.deepEqual(result, { kind: 'noul', model: 'weka', answer: 'yes', probabilities: { yes: 0.72, no: 0.28 } });
    const req = stub.requests[0];
    assert.deepEqual([req?.method, req?.path, req?.headers['authorization']], ['POST', '/v1/decisions', 'Bearer key-pro']);
    assert.deepEqual(req?.body, { model: 'weka', kind: 'noul', question: 'Ship release 2.4 today?', context: 'all checks green' });
  });

  it('choice: the answer is one of the options, with a probability per option', async () => {
    const result = await requestDecision(cfg(), { kind: 'choice', question: 'Which queue?', options: ['triage', 'backlog', 'urgent'] });
    assert.equal(result.kind, 'choice');
    assert.equal(result.answer, 'triage');
    assert.deepEqual(Object.keys(result.probabilities), ['triage', 'backlog', 'urgent']);
    assert.deepEqual(stub.requests[0]?.body.options, ['triage', 'backlog', 'urgent']);
  });

  it('score: an integer on the scale (default 1-5, or as given)', async () => {
    const dflt = await requestDecision(cfg(), { kind: 'score', question: 'Risk of this diff?' });
    assert.equal(dflt.answer, 5);
    assert.deepEqual(stub.requests[0]?.body.scale, { min: 1, max: 5 });
    const ten = await requestDecision(cfg(), { kind: 'score', question: 'Risk?', scale: { min: 0, max: 10 } });
    assert.equal(Object.keys(ten.probabilities).length, 11);
    assert.equal(ten.answer, 10);
  });

  it('a malformed answer is a clear provider_error naming what is wrong', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'noul', answer: 'maybe', probabilities: { yes: 0.5, no: 0.5 } }, /answer "maybe" is not one of "yes", "no"/],
      [{ kind: 'noul', answer: 'yes', probabilities: { yes: 0.9, no: 0.9 } }, /sum to 1\.800, not 1/],
      [{ kind: 'noul', answer: 'yes' }, /probabilities: /],
      [{ kind: 'choice', answer: 'a', probabilities: { a: 1 } }, /kind is "choice" but "noul" was asked/],
      [{ kind: 'noul', answer: 'yes', probabilities: { yes: 1.2, no: -0.2 } }, /outside 0\.\.1/],
      ['not an object', /body: /],
    ];
    for (const [body, pattern] of cases) {
      stub.enqueueDecision(body);
      const err = await failure(requestDecision(cfg(), { kind: 'noul', question: 'q?' }));
      assert.equal(err.code, 'provider_error');
      assert.match(err.message, /returned a malformed noul answer/);
      assert.match(err.message, pattern);
    }
    stub.enqueueDecision({ kind: 'choice', answer: 'c', probabilities: { a: 0.5, b: 0.5 } });
    const choice = await failure(requestDecision(cfg(), { kind: 'choice', question: 'q?', options: ['a', 'b'] }));
    assert.match(choice.message, /answer "c" is not one of "a", "b"/);
    stub.enqueueDecision({ kind: 'score', answer: 3, probabilities: { '1': 0.5, '2': 0.5 } });
    const score = await failure(requestDecision(cfg(), { kind: 'score', question: 'q?', scale: { min: 1, max: 3 } }));
    assert.match(score.message, /no probability for "3"/);
  });

  it('invalid requests are refused before sending: choice without options, options on noul, a bad scale', async () => {
    await assert.rejects(requestDecision(cfg(), { kind: 'choice', question: 'q', options: ['only'] }), InvalidDecisionRequest);
    await assert.rejects(requestDecision(cfg(), { kind: 'noul', question: 'q', options: ['a', 'b'] }), /only for kind "choice"/);
    await assert.rejects(requestDecision(cfg(), { kind: 'score', question: 'q', scale: { min: 5, max: 1 } }), /min < max/);
    await assert.rejects(requestDecision(cfg(), { kind: 'noul', question: '  ' }), /question must not be empty/);
    assert.equal(stub.requests.length, 0);
  });

  it('outside the plan: 403 with the plan hint for weka (both statements)', async () => {
    const err = await failure(requestDecision(cfg('key-free'), { kind: 'noul', question: 'q?' }));
    assert.equal(err.status, 403);
    assert.equal(err.code, 'not_in_plan');
    assert.match(err.message, /^"weka" is not in your plan \(Free\)/);
    assert.match(err.remedy, /includes "weka" \(it is included from the Lite plan in the plan list; the model table says Pro and above\)/);
  });

  it('weka\'s 32K input limit is checked before sending: the limit and the estimate, nothing sent', async () => {
    const huge = 'risk '.repeat(40_000); // 200,000 bytes ≈ 66,667 tokens by the 3-bytes-per-token estimate
    const err = await failure(requestDecision(cfg(), { kind: 'noul', question: 'Ship it?', context: huge }));
    assert.equal(err.code, 'context_too_long');
    assert.match(err.message, /"weka": about 66,6\d\d tokens .* against its limit of 32,000 input tokens; nothing was sent/);
    assert.match(err.remedy, /shorten the question or --context/);
    assert.equal(stub.requests.length, 0, 'nothing sent');
    const fits = 'risk '.repeat(15_000); // 75,000 bytes ≈ 25,000 tokens: under the limit, sent
    await requestDecision(cfg(), { kind: 'noul', question: 'Ship it?', context: fits });
    assert.equal(stub.requests.length, 1);
  });

  it('without a base URL or key: config_error naming the setting and variable', async () => {
    const err = await failure(requestDecision(config({ serviceai: { baseUrl: stub.origin } }), { kind: 'noul', question: 'q?' }));
    assert.equal(err.code, 'config_error');
    assert.match(`${err.message} ${err.remedy}`, /serviceai\.apiKey.*SERVICE_API_KEY/);
  });

  it('formats the answer with every probability, most likely first', () => {
    const text = formatDecision({ kind: 'choice', model: 'weka', answer: 'b', probabilities: { a: 0.25, b: 0.75 } });
    const lines = text.split('\n');
    assert.equal(lines[0], 'answer: b');
    assert.match(lines[2] ?? '', /^\s+b\s+75\.0%/);
    assert.match(lines[3] ?? '', /^\s+a\s+25\.0%/);
  });
});
