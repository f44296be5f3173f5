import assert from 'node:assert/strict';
import { z } from 'zod';
import { Agent, StructuredOutputError } from '../../src/sdk';
import { startOpenAIStub, type OpenAIStub } from '../stubs/openai-stub';
import { ensureRuntimeBuilt, makeWorkspace, testAgentOptions } from './helpers';

const Person = z.object({ name: z.string(), age: z.number().int() });

/** runJson against the real runtime and stub model. Requires `npm run build` (done here when stale). */
describe('sdk runJson against the real runtime', function () {
  this.timeout(60_000);
  let stub: OpenAIStub;
  let agent: Agent | undefined;
  before(() => ensureRuntimeBuilt());
  beforeEach(async () => {
    stub = await startOpenAIStub();
    agent = await Agent.create(testAgentOptions(makeWorkspace({}, stub.origin)));
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await stub.close();
  });

  it('returns the validated value and asks the provider for the JSON schema format', async () => {
    stub.enqueue({ text: '{"name": "Ada", "age": 36}' });
    const person = await agent!.runJson('Who wrote the first program?', { schemaName: 'person', schema: Person });
    assert.deepEqual(person, { name: 'Ada', age: 36 });
    const body = stub.requests[0]!.body as { response_format?: { type: string; json_schema?: { name: string; schema: { properties: object } } } };
    assert.equal(body.response_format?.type, 'json_schema');
    assert.equal(body.response_format?.json_schema?.name, 'person');
    assert.ok('age' in (body.response_format?.json_schema?.schema.properties ?? {}));
  });

  it('takes the value from a fenced block in prose', async () => {
    stub.enqueue({ text: 'Sure! Here it is:\n```json\n{"name": "Grace", "age": 85}\n```\nAnything else?' });
    assert.deepEqual(await agent!.runJson('Who?', { schema: Person }), { name: 'Grace', age: 85 });
  });

  it('accepts a plain JSON schema', async () => {
    stub.enqueue({ text: 'The result: {"ok": true, "count": 3}' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' }, count: { type: 'integer' } }, required: ['ok', 'count'] };
    assert.deepEqual(await agent!.runJson('Check', { schemaName: 'check', schema }), { ok: true, count: 3 });
  });

  it('text without JSON throws StructuredOutputError carrying the raw text', async () => {
    const raw = 'I would rather not answer in JSON.';
    stub.enqueue({ text: raw });
    await assert.rejects(agent!.runJson('Who?', { schema: Person }), (e: unknown) => {
      assert.ok(e instanceof StructuredOutputError);
      assert.equal(e.raw, raw);
      assert.match(e.issues[0]!.message, /no JSON/);
      return true;
    });
  });

  it('JSON that breaks the schema throws with the issues and the raw text', async () => {
    const raw = '{"name": "Ada", "age": "thirty-six"}';
    stub.enqueue({ text: raw });
    await assert.rejects(agent!.runJson('Who?', { schema: Person }), (e: unknown) => {
      assert.ok(e instanceof StructuredOutputError);
      assert.equal(e.raw, raw);
      assert.deepEqual(e.issues.map((i) => i.path), ['age']);
      return true;
    });
  });

  it('repair: true sends one follow-up naming the problems and accepts the corrected answer', async () => {
    stub.enqueue({ text: '{"name": "Ada"}' }, { text: '{"name": "Ada", "age": 36}' });
    const person = await agent!.runJson('Who?', { schema: Person, repair: true });
    assert.deepEqual(person, { name: 'Ada', age: 36 });
    assert.equal(stub.requests.length, 2);
    const followUp = (stub.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    assert.equal(followUp.role, 'user');
    assert.match(followUp.content, /age/);
  });

  it('repair gives up after one round trip', async () => {
    stub.enqueue({ text: 'nope' }, { text: 'still nope' });
    await assert.rejects(agent!.runJson('Who?', { schema: Person, repair: true }), (e: unknown) => e instanceof StructuredOutputError && e.raw === 'still nope');
    assert.equal(stub.requests.length, 2);
  });
});
