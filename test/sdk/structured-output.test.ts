import assert from 'node:assert/strict';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { InvalidArgumentError } from '../../src/sdk';
import { jsonPrompt, parseStructured, prepareSchema, repairPrompt } from '../../src/sdk/structured-output';

describe('sdk structured output: schema preparation and validation', () => {
  const Person = z.object({ name: z.string(), age: z.number().int() });

  it('turns a zod schema into a json_schema response format and validates with it', () => {
    const p = prepareSchema({ schemaName: 'person', schema: Person });
    assert.equal(p.responseFormat.type, 'json_schema');
    assert.equal(p.name, 'person');
    assert.equal((p.jsonSchema as { type?: string }).type, 'object');
    assert.deepEqual(parseStructured('{"name":"Ada","age":36}', p), { ok: true, value: { name: 'Ada', age: 36 } });
    const bad = parseStructured('{"name":"Ada","age":"old"}', p);
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.issues.some((i) => i.path === 'age'));
  });

  it('refuses a zod 3 schema with a message saying which zod it takes', () => {
    assert.throws(
      () => prepareSchema({ schema: z3.object({ n: z3.number() }) as never }),
      (e: unknown) => e instanceof InvalidArgumentError && /zod 3 schema; runJson takes zod 4/.test(e.message),
    );
  });

  it('validates against a plain JSON schema', () => {
    const p = prepareSchema({ schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } });
    assert.equal(p.name, 'response');
    assert.equal(parseStructured('```json\n{"ok": true}\n```', p).ok, true);
    const bad = parseStructured('{"ok": "yes"}', p);
    assert.ok(!bad.ok && bad.issues[0]?.path === 'ok');
  });

  it('validate: false returns any JSON; a validate function may transform or reject', () => {
    const loose = prepareSchema({ schema: Person, validate: false });
    assert.deepEqual(parseStructured('{"x":1}', loose), { ok: true, value: { x: 1 } });
    const custom = prepareSchema({
      schema: Person,
      validate: (v) => {
        const p = Person.parse(v);
        return { ...p, name: p.name.toUpperCase() };
      },
    });
    assert.deepEqual(parseStructured('{"name":"ada","age":1}', custom), { ok: true, value: { name: 'ADA', age: 1 } });
    const rejected = parseStructured('{"name":1,"age":1}', custom);
    assert.ok(!rejected.ok && rejected.issues.some((i) => i.path === 'name'));
  });

  it('reports text without JSON', () => {
    const r = parseStructured('I cannot do that.', prepareSchema({ schema: Person }));
    assert.ok(!r.ok && /no JSON/.test(r.issues[0]!.message));
  });

  it('rejects bad options with clear errors', () => {
    assert.throws(() => prepareSchema({ schema: 'nope' as never }), InvalidArgumentError);
    assert.throws(() => prepareSchema({ schema: Person, schemaName: 'has space' }), /schemaName/);
    assert.throws(() => prepareSchema({ schema: Person, validate: 3 as never }), /validate must be/);
  });

  it('the prompts name the schema and the problems', () => {
    const p = prepareSchema({ schemaName: 'person', schema: Person });
    assert.match(jsonPrompt('Who?', p), /^Who\?[\s\S]*"person"[\s\S]*"age"/);
    assert.match(repairPrompt([{ path: 'age', message: 'expected number' }]), /age: expected number/);
  });
});
