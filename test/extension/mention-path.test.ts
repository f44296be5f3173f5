import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { insideFolder } from '../../src/extension/chat/mention-path';
import { makeTempDir } from '../helpers/temp-dir';

describe('@ mentions: only files inside the workspace are attached', () => {
  const root = makeTempDir('mention-path-');
  const workspace = path.join(root, 'ws');
  const outside = path.join(root, 'secret.txt');
  mkdirSync(path.join(workspace, 'src'), { recursive: true });
  writeFileSync(path.join(workspace, 'src', 'a.ts'), 'a');
  writeFileSync(path.join(workspace, '..notes'), 'dots in a name');
  writeFileSync(outside, 'secret');
  symlinkSync(outside, path.join(workspace, 'link-out'));
  symlinkSync(path.join(workspace, 'src', 'a.ts'), path.join(workspace, 'link-in'));

  it('accepts workspace files, relative or absolute, and a symlink that stays inside', async () => {
    assert.equal((await insideFolder(workspace, 'src/a.ts'))?.ok, true);
    assert.equal((await insideFolder(workspace, path.join(workspace, 'src', 'a.ts')))?.ok, true);
    assert.equal((await insideFolder(workspace, 'link-in'))?.ok, true);
    assert.equal((await insideFolder(workspace, '..notes'))?.ok, true, 'a name starting with two dots is inside');
  });

  it('refuses paths that leave the workspace: ../, absolute, or through a symlink', async () => {
    assert.equal((await insideFolder(workspace, '../secret.txt'))?.ok, false);
    assert.equal((await insideFolder(workspace, outside))?.ok, false);
    assert.equal((await insideFolder(workspace, 'link-out'))?.ok, false);
  });

  it('says when the file does not exist', async () => {
    assert.equal(await insideFolder(workspace, 'src/missing.ts'), undefined);
  });
});
