import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { deleteFileTool } from '../../../src/runtime/tools/delete-file';
import { editFileTool } from '../../../src/runtime/tools/edit-file';
import { readFileTool } from '../../../src/runtime/tools/read-file';
import { ToolInputError } from '../../../src/runtime/tools/types';
import { writeFileTool } from '../../../src/runtime/tools/write-file';
import { BatchedFiles, DirectFiles } from '../../../src/runtime/workspace/files';
import { makeContext, runTool, tempDir, toolError, type TestContext } from './helpers';

describe('file tools', () => {
  let root: string;
  let cleanup: () => void;
  let store: ChangeBatchStore;
  let ctx: TestContext;
  const abs = (rel: string) => path.join(root, rel);

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    store = new ChangeBatchStore({ root });
    store.beginRun('r');
    ctx = makeContext(new BatchedFiles(store), path.join(root, '.out'));
    writeFileSync(abs('app.ts'), 'const a = 1;\nconst b = 2;\n\nfunction f() {\n  return a + b;\n}\n');
  });
  afterEach(() => cleanup());

  describe('read_file', () => {
    it('numbers lines like cat -n and pages with offset/limit', async () => {
      const all = await runTool(readFileTool, { path: 'app.ts' }, ctx);
      assert.equal(all.output.split('\n')[0], '     1\tconst a = 1;');
      assert.equal(all.output.split('\n').length, 6);
      const page = await runTool(readFileTool, { path: 'app.ts', offset: 2, limit: 2 }, ctx);
      assert.equal(page.output.split('\n')[0], '     2\tconst b = 2;');
      assert.match(page.output, /showing lines 2-3 of 6.*offset=4/);
    });

    it('caps the output size and says how to continue', async () => {
      const line = 'x'.repeat(1000);
      writeFileSync(abs('big.txt'), `${line}\n`.repeat(400));
      const result = await runTool(readFileTool, { path: 'big.txt' }, ctx);
      assert.ok(result.output.length <= 256 * 1024 + 200);
      assert.match(result.output, /KiB cap\); call read_file with offset=\d+/);
    });

    it('refuses binary files and names missing ones', async () => {
      writeFileSync(abs('img.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
      assert.match(await toolError(readFileTool, { path: 'img.bin' }, ctx), /img\.bin is a binary file/);
      assert.match(await toolError(readFileTool, { path: 'nope/missing.ts' }, ctx), /file not found: nope\/missing\.ts/);
      assert.match(await toolError(readFileTool, { path: 'app.ts', offset: 99 }, ctx), /past the end .* 6 lines/);
      mkdirSync(abs('folder'));
      assert.match(await toolError(readFileTool, { path: 'folder' }, ctx), /is a directory/);
    });

    it('sees proposed content', async () => {
      await store.propose(abs('app.ts'), 'proposed\n');
      assert.equal((await runTool(readFileTool, { path: 'app.ts' }, ctx)).output, '     1\tproposed');
    });

    it('asks Read permission for the resolved path', () => {
      const target = readFileTool.permissionTarget({ path: 'app.ts' }, { cwd: root });
      assert.deepEqual(target, { ruleTool: 'Read', paths: [abs('app.ts')], description: 'Read app.ts' });
      assert.equal(readFileTool.readOnly, true);
      assert.throws(() => readFileTool.permissionTarget({ path: '' }, { cwd: root }), ToolInputError);
    });
  });

  describe('write_file', () => {
    it('proposes a create or an update and says it awaits review', async () => {
      const created = await runTool(writeFileTool, { path: 'src/new.ts', content: 'a\nb\n' }, ctx);
      assert.match(created.output, /^Created src\/new\.ts \(2 lines\)\. Proposed, awaiting/);
      const updated = await runTool(writeFileTool, { path: 'app.ts', content: 'x\n' }, ctx);
      assert.match(updated.output, /^Updated app\.ts/);
      assert.equal(readFileSync(abs('app.ts'), 'utf8').startsWith('const a'), true);
      assert.equal(store.open()?.changes.length, 2);
      assert.deepEqual(writeFileTool.permissionTarget({ path: 'app.ts', content: '' }, { cwd: root }).paths, [abs('app.ts')]);
      assert.equal(writeFileTool.readOnly, false);
    });

    it('writes to disk with direct file access', async () => {
      const direct = makeContext(new DirectFiles(root), path.join(root, '.out'));
      const result = await runTool(writeFileTool, { path: 'd.txt', content: 'disk\n' }, direct);
      assert.match(result.output, /Written to disk/);
      assert.equal(readFileSync(abs('d.txt'), 'utf8'), 'disk\n');
    });

    it('refuses a directory path', async () => {
      mkdirSync(abs('dir'));
      assert.match(await toolError(writeFileTool, { path: 'dir', content: 'x' }, ctx), /is a directory/);
    });
  });

  describe('edit_file', () => {
    it('replaces a unique match on the current (proposed) content', async () => {
      await runTool(editFileTool, { path: 'app.ts', old_text: 'const a = 1;', new_text: 'const a = 10;' }, ctx);
      const second = await runTool(editFileTool, { path: 'app.ts', old_text: 'a = 10', new_text: 'a = 100' }, ctx);
      assert.match(second.output, /replaced 1 occurrence at line 1/);
      assert.match(store.proposedContent(abs('app.ts')) ?? '', /^const a = 100;\n/);
      assert.equal(store.open()?.changes.length, 1);
    });

    it('reports a non-unique match with the count and line numbers, and replaces all when asked', async () => {
      const message = await toolError(editFileTool, { path: 'app.ts', old_text: 'const', new_text: 'let' }, ctx);
      assert.match(message, /occurs 2 times in app\.ts \(lines 1, 2\)/);
      const all = await runTool(editFileTool, { path: 'app.ts', old_text: 'const', new_text: 'let', replace_all: true }, ctx);
      assert.match(all.output, /2 occurrences/);
      assert.match(store.proposedContent(abs('app.ts')) ?? '', /^let a = 1;\nlet b = 2;/);
    });

    it('explains a miss: whitespace-only difference and the closest line', async () => {
      const ws = await toolError(editFileTool, { path: 'app.ts', old_text: 'function f() {\nreturn a + b;', new_text: 'x' }, ctx);
      assert.match(ws, /matches when whitespace is ignored/);
      const near = await toolError(editFileTool, { path: 'app.ts', old_text: 'return a + c;', new_text: 'x' }, ctx);
      assert.match(near, /not found in app\.ts/);
      assert.match(near, /Closest line 5: " {2}return a \+ b;"/);
    });

    it('rejects identical texts, empty old_text and missing files', async () => {
      assert.match(await toolError(editFileTool, { path: 'app.ts', old_text: 'a', new_text: 'a' }, ctx), /identical/);
      assert.match(await toolError(editFileTool, { path: 'app.ts', old_text: '', new_text: 'a' }, ctx), /empty/);
      assert.match(await toolError(editFileTool, { path: 'no.ts', old_text: 'a', new_text: 'b' }, ctx), /file not found: no\.ts/);
    });

    it('keeps CRLF files editable with LF search text', async () => {
      writeFileSync(abs('win.txt'), 'one\r\ntwo\r\n');
      await runTool(editFileTool, { path: 'win.txt', old_text: 'one\ntwo', new_text: 'uno\ndos' }, ctx);
      assert.equal(store.proposedContent(abs('win.txt')), 'uno\r\ndos\r\n');
    });

    it('describes the permission as an edit', () => {
      const target = editFileTool.permissionTarget({ path: 'app.ts', old_text: 'a', new_text: 'b' }, { cwd: root });
      assert.deepEqual(target, { ruleTool: 'Write', paths: [abs('app.ts')], description: 'Edit app.ts' });
    });
  });

  describe('delete_file', () => {
    it('proposes a delete that reads then see', async () => {
      const result = await runTool(deleteFileTool, { path: 'app.ts' }, ctx);
      assert.match(result.output, /^Deleted app\.ts\. Proposed/);
      assert.match(await toolError(readFileTool, { path: 'app.ts' }, ctx), /file not found/);
      assert.match(await toolError(deleteFileTool, { path: 'app.ts' }, ctx), /file not found/);
      assert.equal(deleteFileTool.permissionTarget({ path: 'app.ts' }, { cwd: root }).description, 'Delete app.ts');
    });
  });
});
