import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { createGrepTool } from '../../../src/runtime/tools/grep';
import { createListFilesTool } from '../../../src/runtime/tools/list-files';
import { latin1Bytes, textOfKey } from '../../../src/runtime/tools/path-keys';
import { findRipgrep } from '../../../src/runtime/tools/ripgrep';
import { SmallestKept } from '../../../src/runtime/tools/smallest-kept';
import { comparePaths, ignoredPathChecker, rulesFor } from '../../../src/runtime/tools/file-listing';
import { BatchedFiles } from '../../../src/runtime/workspace/files';
import { requirePrerequisite } from '../../helpers/prerequisite';
import { makeContext, runTool, tempDir, type TestContext } from './helpers';

const rgPath = findRipgrep();
/** Each search both ways when ripgrep is installed: the streamed ripgrep path and the JS fallback. */
const ways = [{ name: 'JS', rgPath: null }, ...(rgPath ? [{ name: 'ripgrep', rgPath }] : [])];

describe('search and listing caps', () => {
  let root: string;
  let cleanup: () => void;
  let ctx: TestContext;
  const write = (rel: string, content: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  };

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    const store = new ChangeBatchStore({ root });
    store.beginRun('r');
    ctx = makeContext(new BatchedFiles(store), path.join(root, '.out'));
    write('.gitignore', 'ignored/\n');
  });
  afterEach(() => cleanup());

  for (const way of ways) {
    describe(way.name, () => {
      it('grep stops past 20,000 matches, shows the first max_results by path and line, and says it was cut', async () => {
        // 30,000 matching lines in one file: more than one search examines.
        write('big.txt', Array.from({ length: 30_000 }, (_, i) => `needle ${i + 1}`).join('\n') + '\n');
        write('ignored/x.txt', 'needle ignored\n');
        const out = (await runTool(createGrepTool({ rgPath: way.rgPath }), { pattern: 'needle', max_results: 3 }, ctx)).output.split('\n');
        assert.deepEqual(out.slice(0, 3), ['big.txt:1:needle 1', 'big.txt:2:needle 2', 'big.txt:3:needle 3']);
        assert.match(out[3] ?? '', /^\[showing 3 of more than 20000 matches; narrow with path or glob, or raise max_results\]$/);
        assert.equal(out.length, 4);
      });

      it('grep counts every match under the cap and keeps the sorted first ones from any order', async () => {
        for (let i = 0; i < 120; i++) write(`d${i % 7}/f${String(i).padStart(3, '0')}.txt`, 'x\nneedle\n');
        const out = (await runTool(createGrepTool({ rgPath: way.rgPath }), { pattern: 'needle', max_results: 5 }, ctx)).output.split('\n');
        assert.deepEqual(out, [
          'd0/f000.txt:2:needle',
          'd0/f007.txt:2:needle',
          'd0/f014.txt:2:needle',
          'd0/f021.txt:2:needle',
          'd0/f028.txt:2:needle',
          '[showing 5 of 120 matches; narrow with path or glob, or raise max_results]',
        ]);
      });

      it('grep in a folder over more output than one read holds: multi-byte and astral names in code point order, every match counted', async () => {
        // ~2,000 matches with long multi-byte names (several reads of ripgrep's output); most sort after what is kept.
        for (let i = 0; i < 400; i++) write(`sub/${'ü'.repeat(30)}-${String(i).padStart(3, '0')}.txt`, 'needle a\nx\nneedle b\nneedle c\nneedle d\nneedle e\n');
        write('sub/\u{1F600}.txt', 'needle astral\n');
        write('sub/\uFFFD.txt', 'needle replacement\n');
        write('sub/a.txt', 'needle 1\nneedle 2\nneedle 3\n');
        write('elsewhere.txt', 'needle outside the folder\n');
        const grep = createGrepTool({ rgPath: way.rgPath });
        const out = (await runTool(grep, { pattern: 'needle', path: 'sub', max_results: 4 }, ctx)).output.split('\n');
        assert.deepEqual(out, [
          'sub/a.txt:1:needle 1',
          'sub/a.txt:2:needle 2',
          'sub/a.txt:3:needle 3',
          `sub/${'ü'.repeat(30)}-000.txt:1:needle a`,
          '[showing 4 of 2005 matches; narrow with path or glob, or raise max_results]',
        ]);
        const last = (await runTool(grep, { pattern: 'needle (astral|replacement|e)', path: 'sub', max_results: 2 }, ctx)).output.split('\n');
        assert.deepEqual(last, [
          `sub/${'ü'.repeat(30)}-000.txt:6:needle e`,
          `sub/${'ü'.repeat(30)}-001.txt:6:needle e`,
          '[showing 2 of 402 matches; narrow with path or glob, or raise max_results]',
        ]);
        const astral = (await runTool(grep, { pattern: 'needle (astral|replacement)', path: 'sub', max_results: 1 }, ctx)).output.split('\n');
        assert.deepEqual(astral, ['sub/\uFFFD.txt:1:needle replacement', '[showing 1 of 2 matches; narrow with path or glob, or raise max_results]']);
      });

      it('grep reads file names with a newline or a colon and lines with CRLF exactly', async () => {
        write('odd\nname:1.txt', 'one\r\nneedle: here\r\n');
        const out = (await runTool(createGrepTool({ rgPath: way.rgPath }), { pattern: 'needle' }, ctx)).output;
        assert.equal(out, 'odd\nname:1.txt:2:needle: here');
      });

      it('list_files keeps only the first `limit` files in order and counts the rest', async () => {
        for (let i = 0; i < 300; i++) write(`p${i % 3}/m${i % 5}/f${String(i).padStart(3, '0')}.ts`, '');
        write('ignored/y.ts', '');
        const out = (await runTool(createListFilesTool({ rgPath: way.rgPath }), { limit: 4 }, ctx)).output.split('\n');
        assert.deepEqual(out, [
          '.gitignore',
          'p0/m0/f000.ts',
          'p0/m0/f015.ts',
          'p0/m0/f030.ts',
          '[showing 4 of 301 files in .; narrow with path or pattern, or raise limit]',
        ]);
      });

      it('list_files over more output than one read holds: names split across reads, multi-byte and astral names, in code point order', async () => {
        // ~3,000 long names: ripgrep's output arrives in several chunks, so records and UTF-8 sequences are cut between them
        const names: string[] = [];
        for (let i = 0; i < 3000; i++) names.push(`deep/${'d'.repeat(40)}/é-${String(i).padStart(4, '0')}-${'ü'.repeat(20)}.txt`);
        names.push('u/\u{1F600}.txt', 'u/\uFFFD.txt', 'u/z.txt');
        for (const n of names) write(n, '');
        const out = (await runTool(createListFilesTool({ rgPath: way.rgPath }), { limit: 5000 }, ctx)).output.split('\n');
        assert.equal(out.length, names.length + 1, 'every file listed once (and .gitignore)');
        assert.deepEqual(out.slice(-3), ['u/z.txt', 'u/\uFFFD.txt', 'u/\u{1F600}.txt'], 'U+FFFD sorts before U+1F600 (code point order)');
        assert.equal(out[1], `deep/${'d'.repeat(40)}/é-0000-${'ü'.repeat(20)}.txt`);
        const few = (await runTool(createListFilesTool({ rgPath: way.rgPath }), { path: 'u', limit: 2 }, ctx)).output.split('\n');
        assert.deepEqual(few, ['u/z.txt', 'u/\uFFFD.txt', '[showing 2 of 3 files in u; narrow with path or pattern, or raise limit]']);
      });
    });
  }

  it('list_files drops what ripgrep listed but the workspace rules ignore, nested rules and negations included', async function () {
    requirePrerequisite(this, process.platform === 'win32' ? 'a POSIX shell for the ripgrep stand-in (a shell script)' : undefined);
    // A ripgrep stand-in that lists everything (as one reading other ignore files, or another dialect, could): the
    // listing checks the files it shows against the workspace's own rules and counts only those it keeps.
    write('.gitignore', 'ignored/\n*.log\n');
    write('src/gen/.gitignore', '*.gen.ts\n!keep.gen.ts\n');
    const listed = ['ignored/a.ts', 'src/a.ts', 'debug.log', 'src/gen/x.gen.ts', 'src/gen/keep.gen.ts', 'src/gen/deep/y.gen.ts', 'z.ts'];
    for (const f of listed) write(f, '');
    const fakeRg = path.join(root, '..', `fake-rg-${path.basename(root)}`);
    writeFileSync(fakeRg, `#!/bin/sh\nprintf '${listed.map((f) => `./${f}\\0`).join('')}'\n`, { mode: 0o755 });
    try {
      const out = (await runTool(createListFilesTool({ rgPath: fakeRg }), {}, ctx)).output;
      assert.equal(out, 'src/a.ts\nsrc/gen/keep.gen.ts\nz.ts');
      // The check runs on the page kept: dropped files shorten it (here 3 kept, 2 dropped), and the count stays right.
      const few = (await runTool(createListFilesTool({ rgPath: fakeRg }), { limit: 3 }, ctx)).output.split('\n');
      assert.deepEqual(few, ['src/a.ts', '[showing 1 of 5 files in .; narrow with path or pattern, or raise limit]']);
    } finally {
      rmSync(fakeRg, { force: true });
    }
  });

  it('comparePaths orders by code point (UTF-8 byte order), not by UTF-16 unit', () => {
    const paths = ['b', 'a/b', 'a', '\u{1F600}', '\uFFFD', 'a/\u00e9', 'a/z', 'a/\u007f', 'a/\u0080'];
    const byBytes = [...paths].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    assert.deepEqual([...paths].sort(comparePaths), byBytes);
    assert.deepEqual(byBytes, ['a', 'a/b', 'a/z', 'a/\u007f', 'a/\u0080', 'a/\u00e9', 'b', '\uFFFD', '\u{1F600}']);
    // The listing keeps path keys (latin1 text of the bytes) sorted as plain strings (the default sort): the same
    // order, and each key gives its path back.
    const keys = paths.map(latin1Bytes);
    assert.deepEqual([...keys].sort().map(textOfKey), byBytes);
    assert.equal(latin1Bytes('a/b'), 'a/b', 'an ASCII path is its own key');
    // SmallestKept without a comparator keeps the smallest keys of a stream in that order, whatever order it comes in
    for (const limit of [1, 3, 9]) {
      const kept = new SmallestKept<string>(limit);
      for (const k of [...keys].reverse()) kept.offer(k);
      assert.deepEqual(kept.sorted().map(textOfKey), byBytes.slice(0, limit), `limit ${limit}`);
    }
  });

  it('SmallestKept keeps the smallest keys of a long stream, and its cutoff only ever falls', () => {
    const all = Array.from({ length: 5000 }, (_, i) => `pkg${String((i * 7919) % 5000).padStart(4, '0')}/file.ts`);
    const kept = new SmallestKept<string>(100);
    let last: string | undefined;
    for (const k of all) {
      kept.offer(k);
      const cutoff = kept.largest();
      if (last !== undefined) assert.ok(cutoff !== undefined && cutoff <= last, 'the cutoff never rises');
      last = cutoff;
    }
    assert.deepEqual(kept.sorted(), [...all].sort().slice(0, 100));
    assert.equal(kept.largest(), [...all].sort()[99]);
  });

  it('ignoredPathChecker gives the same verdicts as IgnoreRules.ignoresPath, folder rules included', async () => {
    write('.gitignore', 'build/\n*.log\n!keep.log\n');
    write('src/.gitignore', 'gen/\n');
    const files = ['build/a.ts', 'src/build/b.ts', 'src/gen/c.ts', 'src/d.ts', 'x.log', 'logs/keep.log', 'src/gen.ts', 'deep/build/x/y.ts'];
    const rules = rulesFor(root, root);
    const check = ignoredPathChecker(rules);
    for (const rel of files) {
      const abs = path.join(root, rel);
      assert.equal(await check(abs), await rules.ignoresPath(abs), rel);
    }
    assert.deepEqual(await Promise.all(files.map((rel) => check(path.join(root, rel)))), [true, true, true, false, true, false, false, true]);
  });

  it('SmallestKept keeps the smallest items of a stream in order, whatever order they come in', () => {
    const kept = new SmallestKept<number>(4, (a, b) => a - b);
    for (const n of [50, 3, 99, 7, 1, 42, 8, 2, 100, 0, 5]) kept.offer(n);
    assert.deepEqual(kept.sorted(), [0, 1, 2, 3]);
    assert.equal(kept.wouldKeep(4), false);
    assert.equal(kept.wouldKeep(-1), true);
  });
});
