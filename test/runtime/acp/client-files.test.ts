import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AcpFiles, type ClientFileAccess, type WriteRecord } from '../../../src/runtime/acp/client-files';

describe('acp: the file layer of an ACP session', () => {
  let root: string;
  let records: WriteRecord[];
  let modified: string[];
  let asked: string[];
  const make = (client: ClientFileAccess) => new AcpFiles(root, client, (w) => records.push(w), (rel) => modified.push(rel));
  const buffers = (texts: Record<string, string>): ClientFileAccess => ({
    readText: async (p) => {
      asked.push(p);
      const t = texts[p];
      if (t === undefined) throw new Error('no such buffer');
      return t;
    },
    writeText: async (p, content) => {
      texts[p] = content;
    },
  });

  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'acp-files-')));
    records = [];
    modified = [];
    asked = [];
  });

  it('without client access, writes land on the disk and are recorded with both sides', async () => {
    const file = path.join(root, 'a.txt');
    writeFileSync(file, 'old\n');
    const files = make({});
    assert.deepEqual(await files.write(file, 'new\n'), { mode: 'written', kind: 'modify' });
    assert.equal(readFileSync(file, 'utf8'), 'new\n');
    await files.delete(file);
    assert.equal(existsSync(file), false);
    assert.deepEqual(records, [
      { path: file, oldText: 'old\n', newText: 'new\n' },
      { path: file, oldText: 'new\n', newText: null },
    ]);
    assert.deepEqual(modified, ['a.txt', 'a.txt']);
  });

  it("reads the client's buffer for text, the disk for missing and binary files", async () => {
    const text = path.join(root, 't.txt');
    const binary = path.join(root, 'b.bin');
    writeFileSync(text, 'on disk\n');
    writeFileSync(binary, Buffer.from([1, 0, 2]));
    const files = make(buffers({ [text]: 'in the editor\n' }));
    assert.equal(await files.readText(text), 'in the editor\n');
    assert.equal((await files.readBytes(text))?.toString('utf8'), 'in the editor\n');
    assert.deepEqual([...((await files.readBytes(binary)) ?? [])], [1, 0, 2]);
    assert.equal(await files.readText(path.join(root, 'missing.txt')), null);
    assert.deepEqual(asked, [text, text], 'missing and binary files are not asked of the client');
  });

  it('writes through the client (the disk untouched, parent folders made) and says so when the client fails', async () => {
    const texts: Record<string, string> = {};
    const files = make(buffers(texts));
    const file = path.join(root, 'sub', 'new.txt');
    assert.deepEqual(await files.write(file, 'hello\n'), { mode: 'written', kind: 'create' });
    assert.equal(texts[file], 'hello\n');
    assert.equal(existsSync(file), false, 'the editor owns the write');
    assert.ok(existsSync(path.dirname(file)));
    assert.deepEqual(records, [{ path: file, oldText: null, newText: 'hello\n' }]);
    writeFileSync(path.join(root, 'x.txt'), 'x');
    const failing = make({ readText: async () => Promise.reject(new Error('buffer is locked')) });
    await assert.rejects(failing.readText(path.join(root, 'x.txt')), /the editor could not read .*x\.txt: buffer is locked/);
  });
});
