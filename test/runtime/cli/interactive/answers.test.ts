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
    const ok = (files: number[], hunks: Array<[number, number[]]> = []) => ({ ok: true, files, hunks: new Map(hunks) });
    assert.deepEqual(parsePick('1,3', [1, 1, 1]), ok([0, 2]));
    assert.deepEqual(parsePick('1-2', [1, 1, 1]), ok([0, 1]));
    assert.deepEqual(parsePick('3, 1 - 2,2', [1, 1, 1, 1]), ok([0, 1, 2]));
    assert.deepEqual(parsePick('2 4', [1, 1, 1, 1]), ok([1, 3]));
    assert.deepEqual(parsePick('all', [1, 3, 0]), ok([0, 1, 2]));
  });

  it('parses hunks of a file as file.hunk, alone, in ranges and beside whole files', () => {
    const ok = (files: number[], hunks: Array<[number, number[]]> = []) => ({ ok: true, files, hunks: new Map(hunks) });
    assert.deepEqual(parsePick('2.1', [0, 3]), ok([], [[1, [0]]]));
    assert.deepEqual(parsePick('2.3, 2.1,1', [0, 3]), ok([0], [[1, [0, 2]]]));
    assert.deepEqual(parsePick('2.1-2 3.2 2.2', [1, 3, 2]), ok([], [[1, [0, 1]], [2, [1]]]));
    assert.deepEqual(parsePick(' 2 . 1 - 3 ', [1, 3]), ok([], [[1, [0, 1, 2]]]), 'spaces around the dot and the dash');
  });

  it('names the wrong part of a pick', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /type the numbers/],
      ['4', /"4" is out of range: the files are numbered 1 to 3/],
      ['0', /"0" is out of range/],
      ['1,x', /"x" is not a number or a range/],
      ['3-1', /runs backwards; write 1-3/],
      ['1-9', /"1-9" is out of range/],
      ['2.', /"2\." is not a number or a range \(e\.g\. 1,3 or 1-3 or 2\.1\)/],
      ['1.1', /file 1 has no hunks to pick \(it is created, deleted or unchanged as a whole\): type 1/],
      ['2.4', /"2\.4" is out of range: the hunks of file 2 are 2\.1 to 2\.3/],
      ['3.2', /"3\.2" is out of range: the hunks of file 3 are 3\.1 only/],
      ['2.0', /"2\.0" is out of range/],
      ['2.3-1', /runs backwards; write 2\.1-3/],
      ['5.1', /"5\.1" is out of range: the files are numbered 1 to 3/],
      ['2, 2.1', /file 2 is picked whole and by hunk: type 2 for all of it, or only the hunks you want/],
      ['1.2.3', /"1\.2\.3" is not a number or a range/],
    ];
    for (const [input, expected] of cases) {
      const r = parsePick(input, [0, 3, 1]);
      assert.equal(r.ok, false, input);
      if (!r.ok) assert.match(r.error, expected, input);
    }
  });
});
