import assert from 'node:assert/strict';
import { z } from 'zod';
import { StructuredOutputError } from '../../src/sdk';
import { makeWorkspace, testAgentOptions, useStubAndAgent } from './helpers';

const Person = z.object({ name: z.string(), age: z.number().int() });

/** runJson against the real runtime and stub model. Requires `npm run build` (done here when stale). */
describe('sdk runJson against the real runtime', function () {
  const t = useStubAndAgent(this);
  beforeEach(async () => {
    await t.create(testAgentOptions(makeWorkspace({}, t.stub.origin)));
  });

  it('returns the validated value and asks the provider for the JSON schema format', async () => {
    t.stub.enqueue({ text: '{"name": "Ada", "age": 36}' });
    const person = await t.agent.runJson('Who wrote the first program?', { schemaName: 'person', schema: Person });
    assert.deepEqual(person, { name: 'Ada', age: 36 });
    const body = t.stub.requests[0]!.body as { response_format?: { type: string; json_schema?: { name: string; schema: { properties: object } } } };
    assert.equal(body.response_format?.type, 'json_schema');
    assert.equal(body.response_format?.json_schema?.name, 'person');
    assert.ok('age' in (body.response_format?.json_schema?.schema.properties ?? {}));
  });

  it('takes the value from a fenced block in prose', async () => {
    t.stub.enqueue({ text: 'Sure! Here it is:\n```json\n{"name": "Grace", "age": 85}\n```\nAnything else?' });
    assert.deepEqual(await t.agent.runJson('Who?', { schema: Person }), { name: 'Grace', age: 85 });
  });

  it('accepts a plain JSON schema', async () => {
    t.stub.enqueue({ text: 'The result: {"ok": true, "count": 3}' });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' }, count: { type: 'integer' } }, required: ['ok', 'count'] };
    assert.deepEqual(await t.agent.runJson('Check', { schemaName: 'check', schema }), { ok: true, count: 3 });
  });

  it('text without JSON throws StructuredOutputError carrying the raw text', async () => {
    const raw = 'I would rather not answer in JSON.';
    t.stub.enqueue({ text: raw });
    await assert.rejects(t.agent.runJson('Who?', { schema: Person }), (e: unknown) => {
      assert.ok(e instanceof StructuredOutputError);
      assert.equal(e.raw, raw);
      assert.match(e.issues[0]!.message, /no JSON/);
      return true;
    });
  });

  it('JSON that breaks the schema throws with the issues and the raw text', async () => {
    const raw = '{"name": "Ada", "age": "thirty-six"}';
    t.stub.enqueue({ text: raw });
    await assert.rejects(t.agent.runJson('Who?', { schema: Person }), (e: unknown) => {
      assert.ok(e instanceof StructuredOutputError);
      assert.equal(e.raw, raw);
      assert.deepEqual(e.issues.map((i) => i.path), ['age']);
      return true;
    });
  });

  it('repair: true sends one follow-up naming the problems and accepts the corrected answer', async () => {
    t.stub.enqueue({ text: '{"name": "Ada"}' }, { text: '{"name": "Ada", "age": 36}' });
    const person = await t.agent.runJson('Who?', { schema: Person, repair: true });
    assert.deepEqual(person, { name: 'Ada', age: 36 });
    assert.equal(t.stub.requests.length, 2);
    const followUp = (t.stub.requests[1]!.body.messages as Array<{ role: string; content: string }>).at(-1)!;
    assert.equal(followUp.role, 'user');
    assert.match(followUp.content, /age/);
  });

  it('repair gives up after one round trip', async () => {
    t.stub.enqueue({ text: 'nope' }, { text: 'still nope' });
    await assert.rejects(t.agent.runJson('Who?', { schema: Person, repair: true }), (e: unknown) => e instanceof StructuredOutputError && e.raw === 'still nope');
    assert.equal(t.stub.requests.length, 2);
  });
});
