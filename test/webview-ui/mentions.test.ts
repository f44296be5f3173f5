import assert from 'node:assert/strict';
import { attachedMentions, extractMentions, insertMention, isMentionable, mentionAtCaret, removeMention } from '../../webview-ui/src/model/mentions';

describe('@ mentions in the prompt box', () => {
  it('extracts mentioned paths without trailing punctuation, not e-mail addresses', () => {
    assert.deepEqual(extractMentions('fix @src/a.ts, then @docs/b.md. mail me@x.com'), ['src/a.ts', 'docs/b.md']);
    assert.deepEqual(extractMentions('@a.ts and @a.ts'), ['a.ts']);
  });

  it('finds the mention being typed at the caret, with what follows the caret in the same word', () => {
    assert.deepEqual(mentionAtCaret('look at @sr', 11), { start: 8, end: 11, query: 'sr' });
    assert.deepEqual(mentionAtCaret('@', 1), { start: 0, end: 1, query: '' });
    assert.deepEqual(mentionAtCaret('see @src/x.ts now', 7), { start: 4, end: 13, query: 'sr' });
    assert.equal(mentionAtCaret('me@x', 4), undefined, 'an e-mail address is not a mention');
    assert.equal(mentionAtCaret('@a.ts done', 10), undefined, 'past the mention');
  });

  it('inserts the chosen path with one space after it and puts the caret after that space', () => {
    const text = 'explain @sr please';
    const at = mentionAtCaret(text, 11)!;
    assert.deepEqual(insertMention(text, at, 'src/app.ts'), { text: 'explain @src/app.ts please', caret: 20 });
    assert.deepEqual(insertMention('@a', { start: 0, end: 2 }, 'a.ts'), { text: '@a.ts ', caret: 6 });
  });

  it('removes a mention with its space, keeping the rest of the text as typed', () => {
    assert.equal(removeMention('fix @src/a.ts please', 'src/a.ts'), 'fix please');
    assert.equal(removeMention('@src/a.ts fix  it', 'src/a.ts'), 'fix  it');
    assert.equal(removeMention('fix @a.ts, and @a.ts.bak', 'a.ts'), 'fix, and @a.ts.bak');
    assert.equal(removeMention('a (b) @x+y.ts', 'x+y.ts'), 'a (b)', 'regex characters in the path are literal');
  });

  it('shows chips for complete mentions, not the one still being typed', () => {
    assert.deepEqual(attachedMentions('see @a.ts and @sr', 17), ['a.ts']);
    assert.deepEqual(attachedMentions('see @a.ts and @sr', undefined), ['a.ts', 'sr']);
    assert.deepEqual(attachedMentions('see @a.ts ', 10), ['a.ts']);
  });

  it('offers only paths a mention can hold', () => {
    assert.equal(isMentionable('src/a b.ts'), false);
    assert.equal(isMentionable('src/a@b.ts'), false);
    assert.equal(isMentionable('src/a-b.ts'), true);
  });
});
