import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { BatchedFiles, DirectFiles } from '../../../src/runtime/workspace/files';
import { tempDir } from '../tools/helpers';

describe('workspace file access', () => {
  let root: string;
  let cleanup: () => void;
  const abs = (rel: string) => path.join(root, rel);

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    writeFileSync(abs('a.txt'), 'disk\n');
  });
  afterEach(() => cleanup());

  describe('BatchedFiles', () => {
    it('turns writes and deletes into proposals that reads see, leaving disk alone', async () => {
      const store = new ChangeBatchStore({ root });
      store.beginRun('r');
      const files = new BatchedFiles(store);
      const written = await files.write(abs('a.txt'), 'proposed\n');
      assert.equal(written.mode, 'proposed');
      assert.equal(written.kind, 'modify');
      assert.ok(written.changeId);
      assert.equal(await files.readText(abs('a.txt')), 'proposed\n');
      assert.equal((await files.readBytes(abs('a.txt')))?.toString(), 'proposed\n');
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'disk\n');

      const created = await files.write(abs('n/new.txt'), 'new\n');
      assert.equal(created.kind, 'create');
      assert.equal(await files.exists(abs('n/new.txt')), true);
      assert.equal(existsSync(abs('n')), false);

      const deleted = await files.delete(abs('a.txt'));
      assert.equal(deleted.kind, 'delete');
      assert.equal(await files.readText(abs('a.txt')), null);
      assert.equal(await files.readBytes(abs('a.txt')), null);
      assert.equal(await files.exists(abs('a.txt')), false);
      assert.equal(existsSync(abs('a.txt')), true);
      assert.deepEqual(files.pendingPaths(), { created: [abs('n/new.txt')], deleted: [abs('a.txt')], modified: [] });
    });
  });

  describe('DirectFiles', () => {
    it('writes atomically at once, creating folders, and reports each written path', async () => {
      const seen: string[] = [];
      const files = new DirectFiles(root, (p) => seen.push(p));
      assert.deepEqual(await files.write(abs('deep/x.txt'), 'x\n'), { mode: 'written', kind: 'create' });
      assert.deepEqual(await files.write(abs('a.txt'), 'changed\n'), { mode: 'written', kind: 'modify' });
      assert.equal(readFileSync(abs('deep/x.txt'), 'utf8'), 'x\n');
      assert.equal(await files.readText(abs('a.txt')), 'changed\n');
      assert.deepEqual(await files.delete(abs('a.txt')), { mode: 'written', kind: 'delete' });
      assert.equal(existsSync(abs('a.txt')), false);
      assert.equal(await files.readText(abs('missing.txt')), null);
      assert.deepEqual(seen, ['deep/x.txt', 'a.txt', 'a.txt']);
      assert.deepEqual(files.pendingPaths(), { created: [], deleted: [] });
    });
  });
});
