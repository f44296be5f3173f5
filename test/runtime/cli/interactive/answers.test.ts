import assert from 'node:assert/strict';
import { choice, choiceMenu, parseChoice, parsePick } from '../../../../src/runtime/cli/interactive/answers';

describe('interactive answers', () => {
  const options = [choice('once', 'once'), choice('session', 'session'), choice('deny', 'deny'), choice('alternative', 'alternative', 9)];

  it('labels each choice with its key in brackets', () => {
    assert.equal(choiceMenu(options), '[o]nce / [s]ession / [d]eny / alternati[v]e');
  });

  it('accepts the key or the whole word, in any case, with spaces around', () => {
    assert.equal(parseChoice('o', options), 'once');
    assert.equal(parseChoice(' S ', options), 'session');
    assert.equal(parseChoice('v', options), 'alternative');
    assert.equal(parseChoice('Deny', options), 'deny');
    assert.equal(parseChoice('alternative', options), 'alternative');
  });

  it('rejects anything else, including an empty answer', () => {
    assert.equal(parseChoice('', options), undefined);
    assert.equal(parseChoice('a', options), undefined);
    assert.equal(parseChoice('yes', options), undefined);
  });

  it('matches multi-word choices by key or by their words', () => {
    const batch = [choice('accept_all', 'accept all'), choice('reject_all', 'reject all'), choice('pick', 'pick files')];
    assert.equal(parseChoice('a', batch), 'accept_all');
    assert.equal(parseChoice('reject all', batch), 'reject_all');
    assert.equal(parseChoice('p', batch), 'pick');
  });

  it('parses picks as lists, ranges and both, sorted and without duplicates', () => {
    assert.deepEqual(parsePick('1,3', 3), { ok: true, indexes: [0, 2] });
    assert.deepEqual(parsePick('1-2', 3), { ok: true, indexes: [0, 1] });
    assert.deepEqual(parsePick('3, 1 - 2,2', 4), { ok: true, indexes: [0, 1, 2] });
    assert.deepEqual(parsePick('2 4', 4), { ok: true, indexes: [1, 3] });
    assert.deepEqual(parsePick('all', 3), { ok: true, indexes: [0, 1, 2] });
  });

  it('names the wrong part of a pick', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /type the numbers/],
      ['4', /"4" is out of range: the files are numbered 1 to 3/],
      ['0', /"0" is out of range/],
      ['1,x', /"x" is not a number or a range/],
      ['3-1', /runs backwards; write 1-3/],
      ['1-9', /"1-9" is out of range/],
    ];
    for (const [input, expected] of cases) {
      const r = parsePick(input, 3);
      assert.equal(r.ok, false, input);
      if (!r.ok) assert.match(r.error, expected, input);
    }
  });
});
