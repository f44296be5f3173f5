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
    it(`refuses a 600 MB file before reading it, with its size, the cap and what to use instead (${mode})`, async () => {
      const big = path.join(root, 'huge.log');
      writeFileSync(big, '');
      truncateSync(big, 600 * 1024 * 1024); // sparse: instant, takes no disk space
      const files = mode === 'batched' ? new BatchedFiles(new ChangeBatchStore({ root })) : new DirectFiles(root);
      const ctx = makeContext(files, path.join(root, '.out'));
      const started = Date.now();
      const message = await toolError(readFileTool, { path: 'huge.log', offset: 1, limit: 10 }, ctx);
      assert.ok(Date.now() - started < 2000, 'answered without reading the file');
      assert.match(message, /huge\.log/);
      assert.match(message, /600\.0 MB \(629145600 bytes\)/);
      assert.match(message, /10\.0 MB limit/);
      assert.match(message, /grep/);
      assert.match(message, /run_command with `head -n 200 <file>`/);
      assert.doesNotMatch(message, /Cannot create a string/);
    });
  }

  it('still reads a file just under the cap', async () => {
    const file = path.join(root, 'under.txt');
    writeFileSync(file, Buffer.alloc(READ_MAX_FILE_BYTES, 'ab\n'));
    const ctx = makeContext(new DirectFiles(root), path.join(root, '.out'));
    const result = await runTool(readFileTool, { path: 'under.txt', limit: 1 }, ctx);
    assert.match(result.output, /^ {5}1\tab\n\[showing lines 1-1 of \d+/);
  });
});
