import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { createRunCommandTool } from '../../../src/runtime/tools/run-command';
import { BatchedFiles } from '../../../src/runtime/workspace/files';
import { makeContext, runTool, tempDir, toolError, type TestContext } from './helpers';

/** Command lines of live (non-zombie) processes whose arguments contain `marker`. */
function liveProcesses(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line.includes(marker) && !line.trim().startsWith('Z'))
    .filter((line) => !line.includes('ps -eo'));
}

describe('run_command', () => {
  let root: string;
  let outputDir: string;
  let cleanup: () => void;
  let ctx: TestContext;
  const tool = createRunCommandTool();

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    outputDir = path.join(root, '..', `${path.basename(root)}-out`);
    const store = new ChangeBatchStore({ root });
    store.beginRun('r');
    ctx = makeContext(new BatchedFiles(store), outputDir, 'call_42');
  });
  afterEach(() => {
    cleanup();
    execFileSync('rm', ['-rf', outputDir]);
  });

  it('runs in the workspace, streams output and reports the exit code', async () => {
    const result = await runTool(tool, { command: 'pwd; echo out; echo err >&2; exit 3' }, ctx);
    assert.match(result.output, new RegExp(`^${root}\\n`));
    assert.match(result.output, /out\n/);
    assert.match(result.output, /err\n/);
    assert.match(result.output, /\[exit code 3\]$/);
    assert.equal(result.isError, true);
    assert.ok(ctx.chunks.join('').includes('out\n'));
    assert.ok(ctx.chunks.join('').includes('err\n'));
    const ok = await runTool(tool, { command: 'true' }, ctx);
    assert.equal(ok.output, '(no output)\n[exit code 0]');
    assert.equal(ok.isError, false);
  });

  it('streams chunks as they arrive, before the command ends', async () => {
    const seenBeforeEnd: string[] = [];
    const streaming = { ...ctx, onOutput: (chunk: string) => seenBeforeEnd.push(chunk) };
    // The command waits until the first line was delivered to onOutput (it then creates the flag file).
    const flag = path.join(root, 'flag');
    const running = runTool(tool, { command: `echo first; while [ ! -f ${flag} ]; do sleep 0.05; done; echo second` }, streaming);
    while (!seenBeforeEnd.join('').includes('first')) await new Promise((r) => setTimeout(r, 20));
    assert.ok(!seenBeforeEnd.join('').includes('second'));
    writeFileSync(flag, '');
    const result = await running;
    assert.match(result.output, /first\nsecond/);
  });

  it('runs in a cwd inside the workspace and refuses one outside', async () => {
    mkdirSync(path.join(root, 'sub'));
    const result = await runTool(tool, { command: 'pwd', cwd: 'sub' }, ctx);
    assert.match(result.output, new RegExp(`${root}/sub\\n`));
    assert.match(await toolError(tool, { command: 'pwd', cwd: '..' }, ctx), /outside the workspace/);
    assert.match(await toolError(tool, { command: 'pwd', cwd: 'missing' }, ctx), /not an existing folder/);
  });

  it('kills the whole process group on timeout', async () => {
    const marker = `${Date.now() % 100000}.${process.pid}`;
    const result = await runTool(tool, { command: `sleep 100${marker} & sleep 200${marker}; wait`, timeout_ms: 300 }, ctx);
    assert.match(result.output, /\[timed out after 300 ms; the command and its child processes were killed\]/);
    assert.equal(result.isError, true);
    assert.deepEqual(liveProcesses(marker), []);
  });

  it('uses the default timeout given to the tool factory', async () => {
    const quick = createRunCommandTool({ commandTimeoutMs: 200 });
    const result = await runTool(quick, { command: 'sleep 30' }, ctx);
    assert.match(result.output, /timed out after 200 ms/);
  });

  it('kills the process group when the turn is aborted', async () => {
    const marker = `${(Date.now() + 7) % 100000}.${process.pid}`;
    const running = runTool(tool, { command: `echo started; sleep 300${marker} & sleep 400${marker}; wait` }, {
      ...ctx,
      onOutput: (chunk: string) => {
        if (chunk.includes('started')) ctx.controller.abort();
      },
    });
    const result = await running;
    assert.match(result.output, /aborted by the user/);
    assert.deepEqual(liveProcesses(marker), []);
  });

  it('does not start when already aborted', async () => {
    ctx.controller.abort();
    const result = await runTool(tool, { command: `touch ${path.join(root, 'ran')}` }, ctx);
    assert.equal(result.isError, true);
    assert.equal(existsSync(path.join(root, 'ran')), false);
  });

  it('truncates long output head+tail and saves the full output for read_file', async () => {
    const result = await runTool(tool, { command: 'seq 1 20000' }, ctx);
    const logPath = path.join(outputDir, 'call_42.log');
    assert.match(result.output, /^1\n2\n3\n/);
    assert.match(result.output, /\n20000\n\[exit code 0\]$/);
    assert.match(result.output, /\[\.\.\. \d+ characters cut; full output \(108894 chars\) saved to .*call_42\.log; read it with read_file \.\.\.\]/);
    assert.ok(result.output.length < 17 * 1024 + 400);
    const full = readFileSync(logPath, 'utf8');
    assert.equal(full.split('\n').length, 20001);
    assert.ok(ctx.chunks.join('').length === full.length, 'the host stream gets everything');
  });

  it('keeps no log for short output', async () => {
    await runTool(tool, { command: 'echo short' }, ctx);
    assert.deepEqual(existsSync(outputDir) ? readdirSync(outputDir) : [], []);
  });

  it('asks Bash permission with the exact command and validates its arguments', () => {
    const target = tool.permissionTarget({ command: 'npm test  &&\n  echo done' }, { cwd: root });
    assert.equal(target.ruleTool, 'Bash');
    assert.equal(target.command, 'npm test  &&\n  echo done');
    assert.equal(target.description, 'Run: npm test && echo done');
    assert.equal(tool.readOnly, false);
    assert.equal(tool.inputSchema.safeParse({ command: 'x', timeout_ms: 600_001 }).success, false);
    assert.equal(tool.inputSchema.safeParse({ command: '' }).success, false);
  });
});
