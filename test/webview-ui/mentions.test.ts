import assert from 'node:assert/strict';
import { attachedMentions, extractMentions, insertMention, isMentionable, mentionAtCaret, mentionText, removeMention } from '../../webview-ui/src/model/mentions';

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

  it('offers every path but one with a double quote or a line break', () => {
    assert.equal(isMentionable('src/a b.ts'), true);
    assert.equal(isMentionable('src/a@b.ts'), true);
    assert.equal(isMentionable('src/a-b.ts'), true);
    assert.equal(isMentionable('src/say "hi".txt'), false);
    assert.equal(isMentionable('a\nb.ts'), false);
    assert.equal(isMentionable(' '), false);
  });

  it('quotes a path that a bare mention would cut short or lose punctuation of', () => {
    assert.equal(mentionText('src/a-b.ts'), '@src/a-b.ts');
    assert.equal(mentionText('My Notes/to do.md'), '@"My Notes/to do.md"');
    assert.equal(mentionText("it's.md"), '@"it\'s.md"');
    assert.equal(mentionText('a@b.ts'), '@"a@b.ts"');
    assert.equal(mentionText('notes.'), '@"notes."', 'a bare @notes. would mean notes');
    assert.equal(mentionText('v1)'), '@"v1)"');
  });

  it('extracts quoted mentions whole, spaces and punctuation included, beside bare ones', () => {
    assert.deepEqual(extractMentions('read @"My Notes/to do.md", then @src/a.ts.'), ['My Notes/to do.md', 'src/a.ts']);
    assert.deepEqual(extractMentions('@"notes." and @"a b" and @"a b"'), ['notes.', 'a b']);
    assert.deepEqual(extractMentions('say "@x y" or @" " or @"unclosed path'), [], 'a quote before @, an empty path and an unclosed quote are not mentions');
    assert.deepEqual(extractMentions('@"two\nlines"'), [], 'a quoted mention ends at the line');
    // every path the picker offers comes back out of the text it inserts
    for (const path of ['My Notes/to do.md', 'notes.', "it's.md", 'a@b.ts', 'src/a-b.ts', '(x).ts']) {
      const { text } = insertMention('see @x now', { start: 4, end: 6 }, path);
      assert.deepEqual(extractMentions(text), [path], text);
    }
  });

  it('finds a quoted mention being typed, spaces included, and its closing quote after the caret', () => {
    assert.deepEqual(mentionAtCaret('read @"My No', 12), { start: 5, end: 12, query: 'My No' });
    assert.deepEqual(mentionAtCaret('read @"', 7), { start: 5, end: 7, query: '' });
    assert.deepEqual(mentionAtCaret('read @"My Notes/a.md" now', 10), { start: 5, end: 21, query: 'My ' });
    assert.equal(mentionAtCaret('read @"a b" now', 15), undefined, 'past the closing quote');
    assert.deepEqual(mentionAtCaret('@"a b" and @"c', 14), { start: 11, end: 14, query: 'c' });
    const text = 'read @"My No please';
    assert.deepEqual(mentionAtCaret(text, 12), { start: 5, end: 12, query: 'My No' }, 'no closing quote: nothing after the caret is taken');
    assert.deepEqual(insertMention(text, mentionAtCaret(text, 12)!, 'My Notes/a.md'), { text: 'read @"My Notes/a.md" please', caret: 22 });
  });

  it('removes a quoted mention and leaves a bare mention of another path alone', () => {
    assert.equal(removeMention('fix @"a b.ts" please', 'a b.ts'), 'fix please');
    assert.equal(removeMention('@"a b.ts", then @a', 'a b.ts'), ', then @a');
    assert.equal(removeMention('see @"notes." and @notes', 'notes.'), 'see and @notes');
  });

  it('shows a chip for a complete quoted mention, not for one still being typed', () => {
    assert.deepEqual(attachedMentions('see @"a b.ts" and @"c d', 22), ['a b.ts']);
    assert.deepEqual(attachedMentions('see @"a b.ts" and @"c d"', undefined), ['a b.ts', 'c d']);
  });
});
