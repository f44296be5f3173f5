import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { createGrepTool } from '../../../src/runtime/tools/grep';
import { createListFilesTool } from '../../../src/runtime/tools/list-files';
import { findRipgrep } from '../../../src/runtime/tools/ripgrep';
import { BatchedFiles } from '../../../src/runtime/workspace/files';
import { makeContext, runTool, tempDir, toolError, type TestContext } from './helpers';
import { requirePrerequisite } from '../../helpers/prerequisite';

const rgPath = findRipgrep();
const jsGrep = createGrepTool({ rgPath: null });
// list_files is run both ways: ripgrep's `--files` (when rg is installed) and the JS walk must list alike.
const listers = [
  { name: 'JS walk', tool: createListFilesTool({ rgPath: null }) },
  ...(rgPath ? [{ name: 'ripgrep', tool: createListFilesTool({ rgPath }) }] : []),
];

describe('list_files and grep', () => {
  let root: string;
  let cleanup: () => void;
  let store: ChangeBatchStore;
  let ctx: TestContext;
  const abs = (rel: string) => path.join(root, rel);
  const write = (rel: string, content: string | Buffer) => {
    mkdirSync(path.dirname(abs(rel)), { recursive: true });
    writeFileSync(abs(rel), content);
  };

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    store = new ChangeBatchStore({ root });
    store.beginRun('r');
    ctx = makeContext(new BatchedFiles(store), path.join(root, '.out'));
    write('.gitignore', 'node_modules/\n*.log\n.out/\n');
    write('.git/config', 'needle in git\n');
    write('node_modules/pkg/index.js', 'needle in deps\n');
    write('debug.log', 'needle in log\n');
    write('src/a.ts', 'const needle = 1;\nconst other = 2;\nneedle();\n');
    write('src/b.ts', 'NEEDLE upper\n');
    write('src/gen/.gitignore', '*.gen.ts\n!keep.gen.ts\n');
    write('src/gen/x.gen.ts', 'needle generated\n');
    write('src/gen/keep.gen.ts', 'needle kept\n');
    write('docs/readme.md', 'about the needle\n');
    write('image.bin', Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01]));
    write('.github/ci.yml', 'needle: hidden folder\n');
  });
  afterEach(() => cleanup());

  for (const { name, tool: listFilesTool } of listers) describe(`list_files (${name})`, () => {
    it('lists sorted files, honouring root and nested .gitignore and skipping .git', async () => {
      const result = await runTool(listFilesTool, {}, ctx);
      assert.deepEqual(result.output.split('\n'), [
        '.github/ci.yml',
        '.gitignore',
        'docs/readme.md',
        'image.bin',
        'src/a.ts',
        'src/b.ts',
        'src/gen/.gitignore',
        'src/gen/keep.gen.ts',
      ]);
    });

    it('filters by glob relative to path and bounds the listing', async () => {
      assert.equal((await runTool(listFilesTool, { pattern: '*.ts', path: 'src' }, ctx)).output, 'src/a.ts\nsrc/b.ts\nsrc/gen/keep.gen.ts');
      assert.equal((await runTool(listFilesTool, { pattern: 'gen/**' , path: 'src' }, ctx)).output, 'src/gen/.gitignore\nsrc/gen/keep.gen.ts');
      const limited = await runTool(listFilesTool, { limit: 2 }, ctx);
      assert.match(limited.output, /^\.github\/ci\.yml\n\.gitignore\n\[showing 2 of 8 files/);
    });

    it('includes files created by proposals and hides files deleted by them', async () => {
      await store.propose(abs('src/new.ts'), 'new\n');
      await store.propose(abs('src/b.ts'), null);
      await store.propose(abs('ignored.log'), 'proposed but ignored\n');
      assert.equal((await runTool(listFilesTool, { path: 'src', pattern: '*.ts' }, ctx)).output, 'src/a.ts\nsrc/gen/keep.gen.ts\nsrc/new.ts');
    });

    it('lists a folder that exists only in proposals', async () => {
      await store.propose(abs('fresh/dir/one.ts'), 'needle\n');
      assert.equal((await runTool(listFilesTool, { path: 'fresh' }, ctx)).output, 'fresh/dir/one.ts');
      assert.equal((await runTool(jsGrep, { pattern: 'needle', path: 'fresh' }, ctx)).output, 'fresh/dir/one.ts:1:needle');
      assert.equal((await runTool(jsGrep, { pattern: 'needle', path: 'fresh/dir/one.ts' }, ctx)).output, 'fresh/dir/one.ts:1:needle');
    });

    it('names a missing folder', async () => {
      assert.match(await toolError(listFilesTool, { path: 'nope' }, ctx), /folder not found: nope/);
      assert.match(await toolError(listFilesTool, { path: 'src/a.ts' }, ctx), /is a file/);
    });
  });

  describe('grep (JS search)', () => {
    it('returns path:line:text sorted, skipping ignored, binary and .git files', async () => {
      const result = await runTool(jsGrep, { pattern: 'needle' }, ctx);
      assert.deepEqual(result.output.split('\n'), [
        '.github/ci.yml:1:needle: hidden folder',
        'docs/readme.md:1:about the needle',
        'src/a.ts:1:const needle = 1;',
        'src/a.ts:3:needle();',
        'src/gen/keep.gen.ts:1:needle kept',
      ]);
    });

    it('supports ignore_case, glob, a file path and max_results', async () => {
      assert.match((await runTool(jsGrep, { pattern: 'needle', ignore_case: true, glob: '*.ts', path: 'src' }, ctx)).output, /src\/b\.ts:1:NEEDLE upper/);
      assert.equal((await runTool(jsGrep, { pattern: 'other', path: 'src/a.ts' }, ctx)).output, 'src/a.ts:2:const other = 2;');
      const cut = await runTool(jsGrep, { pattern: 'needle', max_results: 2 }, ctx);
      assert.match(cut.output, /\[showing 2 of 5 matches/);
      assert.match((await runTool(jsGrep, { pattern: 'zzz' }, ctx)).output, /^No matches/);
    });

    it('searches proposals in their proposed content', async () => {
      await store.propose(abs('src/a.ts'), 'no match here\n');
      await store.propose(abs('src/c.ts'), 'a proposed needle\n');
      await store.propose(abs('docs/readme.md'), null);
      const result = await runTool(jsGrep, { pattern: 'needle', path: 'src' }, ctx);
      assert.equal(result.output, 'src/c.ts:1:a proposed needle\nsrc/gen/keep.gen.ts:1:needle kept');
    });

    it('reports an invalid regex clearly', async () => {
      assert.match(await toolError(jsGrep, { pattern: 'a(b' }, ctx), /invalid regex "a\(b"/);
    });
  });

  const rgTitle = rgPath
    ? 'grep (ripgrep)'
    : 'grep (ripgrep) [SKIPPED: ripgrep not found via AGENTCLI_RG_PATH or PATH; the JS search is tested above]';
  describe(rgTitle, function () {
    before(function () {
      requirePrerequisite(this, rgPath ? undefined : 'ripgrep (rg) not found via AGENTCLI_RG_PATH or PATH');
    });

    const cases: Array<Record<string, unknown>> = [
      { pattern: 'needle' },
      { pattern: 'needle', ignore_case: true },
      { pattern: 'needle', glob: '*.ts' },
      { pattern: 'needle', path: 'src', glob: 'gen/*.ts' },
      { pattern: 'other', path: 'src/a.ts' },
      { pattern: '^needle\\(\\)', path: 'src' },
      { pattern: 'zzz' },
    ];
    for (const args of cases) {
      it(`gives the same result as the JS search for ${JSON.stringify(args)}`, async () => {
        const rg = await runTool(createGrepTool({ rgPath }), args, ctx);
        const js = await runTool(jsGrep, args, ctx);
        assert.equal(rg.output, js.output);
      });
    }

    it('uses proposed content for files with proposals, like the JS search', async () => {
      await store.propose(abs('src/a.ts'), 'no match here\n');
      await store.propose(abs('src/c.ts'), 'a proposed needle\n');
      await store.propose(abs('docs/readme.md'), null);
      const rg = await runTool(createGrepTool({ rgPath }), { pattern: 'needle' }, ctx);
      const js = await runTool(jsGrep, { pattern: 'needle' }, ctx);
      assert.equal(rg.output, js.output);
      assert.match(rg.output, /src\/c\.ts:1:a proposed needle/);
    });

    it('reports an invalid regex as a tool error', async () => {
      assert.match(await toolError(createGrepTool({ rgPath }), { pattern: 'a(b' }, ctx), /invalid regex "a\(b"/);
    });

    it('finds ripgrep through AGENTCLI_RG_PATH first', () => {
      assert.equal(findRipgrep({ AGENTCLI_RG_PATH: rgPath as string, PATH: '' }), rgPath);
      assert.equal(findRipgrep({ AGENTCLI_RG_PATH: '/nonexistent/rg', PATH: '' }), null);
    });
  });
});
