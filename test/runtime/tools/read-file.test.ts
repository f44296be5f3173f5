import assert from 'node:assert/strict';
import { truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { READ_MAX_FILE_BYTES, readFileTool } from '../../../src/runtime/tools/read-file';
import { BatchedFiles, DirectFiles } from '../../../src/runtime/workspace/files';
import { makeContext, runTool, tempDir, toolError } from './helpers';

describe('read_file: file size cap', () => {
  let root: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir: root, cleanup } = tempDir()));
  afterEach(() => cleanup());

  for (const mode of ['batched', 'direct'] as const) {
    it(`refuses a whole read of a 600 MB file before reading it, with its size, the cap and to use offset/limit (${mode})`, async () => {
      const big = path.join(root, 'huge.log');
      writeFileSync(big, '');
      truncateSync(big, 600 * 1024 * 1024); // sparse: instant, takes no disk space
      const files = mode === 'batched' ? new BatchedFiles(new ChangeBatchStore({ root })) : new DirectFiles(root);
      const ctx = makeContext(files, path.join(root, '.out'));
      const started = Date.now();
      const message = await toolError(readFileTool, { path: 'huge.log' }, ctx);
      assert.ok(Date.now() - started < 2000, 'answered without reading the file');
      assert.match(message, /huge\.log is 600\.0 MB \(629145600 bytes\), over the 10\.0 MB limit for reading a whole file/);
      assert.match(message, /read it in pages with offset and limit \(e\.g\. offset=1, limit=2000\)/);
      assert.match(message, /grep/);
      // With offset/limit it is read, and only the first 8 KB are needed to see it is not text.
      assert.match(await toolError(readFileTool, { path: 'huge.log', offset: 1, limit: 10 }, ctx), /huge\.log is a binary file/);
    });
  }

  it('pages through a file over the cap with offset/limit, reading only up to the page', async () => {
    const file = path.join(root, 'big.txt');
    // 1,100,000 numbered lines: 12.7 MB, over the whole-file cap.
    const lines = Array.from({ length: 1_100_000 }, (_, i) => `line ${String(i + 1).padStart(6, '0')}`);
    writeFileSync(file, lines.join('\n') + '\n');
    const ctx = makeContext(new DirectFiles(root), path.join(root, '.out'));
    const page = await runTool(readFileTool, { path: 'big.txt', offset: 500_000, limit: 3 }, ctx);
    assert.equal(
      page.output,
      '500000\tline 500000\n500001\tline 500001\n500002\tline 500002\n' +
        '[showing lines 500000-500002 of a 12.7 MB file (line limit reached); call read_file with offset=500003 to read more]',
    );
    const tail = await runTool(readFileTool, { path: 'big.txt', offset: 1_099_999, limit: 5 }, ctx);
    assert.equal(tail.output, '1099999\tline 1099999\n1100000\tline 1100000');
    assert.match(await toolError(readFileTool, { path: 'big.txt', offset: 1_100_001, limit: 5 }, ctx), /offset 1100001 is past the end of big\.txt, which has 1100000 lines/);
    assert.match(await toolError(readFileTool, { path: 'big.txt' }, ctx), /over the 10\.0 MB limit for reading a whole file: read it in pages with offset and limit/);
  });

  it('reads lines exactly: CRLF, a last line without newline, long lines cut, and the total for files under the cap', async () => {
    const file = path.join(root, 'mixed.txt');
    writeFileSync(file, `one\r\ntwo\n${'x'.repeat(5000)}\nlast`);
    const ctx = makeContext(new DirectFiles(root), path.join(root, '.out'));
    const out = (await runTool(readFileTool, { path: 'mixed.txt', offset: 2, limit: 2 }, ctx)).output.split('\n');
    assert.equal(out[0], '     2\ttwo');
    assert.equal(out[1], `     3\t${'x'.repeat(2000)}… [line cut at 2000 chars]`);
    assert.equal(out[2], '[showing lines 2-3 of 4 (line limit reached); call read_file with offset=4 to read more]');
    assert.equal((await runTool(readFileTool, { path: 'mixed.txt', offset: 4 }, ctx)).output, '     4\tlast');
    assert.equal((await runTool(readFileTool, { path: 'mixed.txt', limit: 1 }, ctx)).output.split('\n')[0], '     1\tone');
  });

  it('still reads a file just under the cap', async () => {
    const file = path.join(root, 'under.txt');
    writeFileSync(file, Buffer.alloc(READ_MAX_FILE_BYTES, 'ab\n'));
    const ctx = makeContext(new DirectFiles(root), path.join(root, '.out'));
    const result = await runTool(readFileTool, { path: 'under.txt', limit: 1 }, ctx);
    assert.match(result.output, /^ {5}1\tab\n\[showing lines 1-1 of \d+/);
  });
});
