import assert from 'node:assert/strict';
import { matchFiles } from '../../src/extension/chat/file-match';

const files = ['README.md', 'src/app.ts', 'src/shared/chat/messages.ts', 'test/app.test.ts', 'docs/releases/CHANGELOG.md', 'src/appendix/x.ts', 'webview-ui/src/view/app.ts'];

describe('@ suggestions: ranking workspace files', () => {
  it('puts file-name prefixes first, shorter paths before longer', () => {
    assert.deepEqual(matchFiles(files, 'app').slice(0, 3), ['src/app.ts', 'test/app.test.ts', 'webview-ui/src/view/app.ts']);
  });

  it('then path prefixes, substrings and letters in order (fuzzy), case-insensitive', () => {
    assert.deepEqual(matchFiles(files, 'src/sh'), ['src/shared/chat/messages.ts']);
    assert.deepEqual(matchFiles(files, 'LOG'), ['docs/releases/CHANGELOG.md']);
    assert.equal(matchFiles(files, 'shcm')[0], 'src/shared/chat/messages.ts');
    assert.deepEqual(matchFiles(files, 'zzz'), []);
  });

  it('with nothing typed yet lists shallow files first, and never more than the limit', () => {
    assert.equal(matchFiles(files, '')[0], 'README.md');
    const many = Array.from({ length: 500 }, (_, i) => `f${i}.ts`);
    assert.equal(matchFiles(many, 'f').length, 50);
    assert.equal(matchFiles(many, 'f', 5).length, 5);
  });
});
