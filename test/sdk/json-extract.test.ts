import assert from 'node:assert/strict';
import { extractJson } from '../../src/sdk';

describe('sdk JSON extraction from a model answer', () => {
  it('parses the whole text first', () => {
    assert.deepEqual(extractJson('  {"a": 1}\n'), { value: { a: 1 }, source: 'whole' });
    assert.deepEqual(extractJson('[1,2]'), { value: [1, 2], source: 'whole' });
    assert.deepEqual(extractJson('42'), { value: 42, source: 'whole' });
  });

  it('then a fenced block, preferring json-tagged fences', () => {
    const text = 'Here:\n```\nnot json\n```\nand\n```json\n{"name": "x", "n": 2}\n```\ndone';
    assert.deepEqual(extractJson(text), { value: { name: 'x', n: 2 }, source: 'fenced' });
    assert.deepEqual(extractJson('```\n[true]\n```'), { value: [true], source: 'fenced' });
  });

  it('then the first balanced value, skipping braces inside strings and unparsable candidates', () => {
    const text = 'The answer is {"msg": "a } tricky { string", "list": [1, {"b": 2}]} as requested. {"second": true}';
    assert.deepEqual(extractJson(text), {
      value: { msg: 'a } tricky { string', list: [1, { b: 2 }] },
      source: 'embedded',
    });
    assert.deepEqual(extractJson('use {curly} then {"ok": 1}'), { value: { ok: 1 }, source: 'embedded' });
    assert.deepEqual(extractJson('escaped {"q": "say \\"}\\" now"} end'), { value: { q: 'say "}" now' }, source: 'embedded' });
  });

  it('returns undefined when there is no JSON', () => {
    assert.equal(extractJson('no json here'), undefined);
    assert.equal(extractJson('{ unbalanced'), undefined);
    assert.equal(extractJson(''), undefined);
  });

  it('stays fast on pathological input', () => {
    const text = '{'.repeat(50_000) + ' {"ok": true}';
    // Bounded scan: gives up rather than spending quadratic time; must simply return.
    const r = extractJson(text);
    assert.ok(r === undefined || r.source === 'embedded');
  });
});
