import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { toUnifiedDiff } from '../../../src/runtime/changes/unified-diff';
import { tempDir } from '../tools/helpers';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe('toUnifiedDiff', () => {
  let root: string;
  let cleanup: () => void;

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    git(root, 'init', '-q');
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    writeFileSync(path.join(root, 'gone.txt'), 'bye\n');
    writeFileSync(path.join(root, 'no-eol.txt'), 'last line');
  });
  afterEach(() => cleanup());

  it('produces a git patch that applies cleanly (modify, create, delete, missing final newline)', async () => {
    const store = new ChangeBatchStore({ root });
    store.beginRun('r');
    await store.propose(path.join(root, 'a.txt'), 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n');
    await store.propose(path.join(root, 'src/new file.ts'), 'export const x = 1;\n');
    await store.propose(path.join(root, 'gone.txt'), null);
    await store.propose(path.join(root, 'no-eol.txt'), 'last line\n');
    const patch = toUnifiedDiff(store.finalize()!);

    assert.match(patch, /^diff --git a\/a\.txt b\/a\.txt$/m);
    assert.match(patch, /^--- \/dev\/null$/m);
    assert.match(patch, /^\+\+\+ \/dev\/null$/m);
    assert.match(patch, /^new file mode 100644$/m);
    assert.match(patch, /^deleted file mode 100644$/m);

    const patchFile = path.join(root, '..', `${path.basename(root)}.patch`);
    writeFileSync(patchFile, patch);
    try {
      git(root, 'apply', '--check', patchFile);
      git(root, 'apply', patchFile);
    } finally {
      execFileSync('rm', ['-f', patchFile]);
    }
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n');
    assert.equal(readFileSync(path.join(root, 'src/new file.ts'), 'utf8'), 'export const x = 1;\n');
    assert.equal(existsSync(path.join(root, 'gone.txt')), false);
    assert.equal(readFileSync(path.join(root, 'no-eol.txt'), 'utf8'), 'last line\n');
  });

  it('returns an empty string for a batch without changes', () => {
    assert.equal(toUnifiedDiff({ changes: [] }), '');
  });
});
