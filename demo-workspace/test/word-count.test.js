import test from 'node:test';
import assert from 'node:assert/strict';
import { wordCount } from '../src/word-count.js';

test('counts words separated by spaces', () => {
  assert.equal(wordCount('one two three'), 3);
});

test('counts words across line breaks', () => {
  assert.equal(wordCount('one two\nthree'), 3);
});

test('an empty text has no words', () => {
  assert.equal(wordCount(''), 0);
});
