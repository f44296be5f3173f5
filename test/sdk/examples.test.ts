import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { makeWorkspace, useStubAndAgent } from './helpers';
import { makeTempDir } from '../helpers/temp-dir';

const ROOT = path.resolve(__dirname, '../..');

/** The examples are type-checked by `npm run typecheck`; here they run end to end against the stub model. */
describe('sdk examples run against the real runtime', function () {
  const t = useStubAndAgent(this);

  const runExample = (name: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const env = { PATH: process.env.PATH ?? '', HOME: makeTempDir('sdk-home-'), SERVICE_PROVIDER: 'ggufserver' };
      execFile(
        process.execPath,
        ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'examples', name), cwd],
        { cwd: ROOT, env, timeout: 50_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('run.ts prints the steps and the answer', async () => {
    const cwd = makeWorkspace({ 'README.md': '# demo\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'list_files', arguments: {} }] }, { text: 'A demo project.' });
    const out = await runExample('run.ts', cwd);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /step 1: list_files\(\{\}\) -> ok/);
    assert.match(out.stdout, /\[completed\] A demo project\./);
  });

  it('stream.ts streams text and tool progress', async () => {
    const cwd = makeWorkspace({ 'README.md': '# demo\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'README.md' } }] }, { text: 'No tests to run.' });
    const out = await runExample('stream.ts', cwd);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /> read_file \{"path":"README.md"\}\n< read_file ok/);
    assert.match(out.stdout, /No tests to run\.\n\[completed\]/);
  });

  it('stop-when.ts stops after a failing step and continues', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.ts' } }] }, { text: 'Nothing there.' });
    const out = await runExample('stop-when.ts', cwd);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /first run: stopped \(stop_condition\) after 1 step\(s\)/);
    assert.match(out.stdout, /second run: completed\nNothing there\./);
  });

  it('run-json.ts prints the typed summary', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: '{"language":"TypeScript","files":3,"risks":[{"path":"a.ts","why":"no tests"}]}' });
    const out = await runExample('run-json.ts', cwd);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /TypeScript, 3 files\n- a\.ts: no tests/);
  });
});
