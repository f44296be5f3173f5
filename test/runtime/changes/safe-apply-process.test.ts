import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '../../../src/protocol';
import { makeWorkspace, runCli, testEnv, useStubbedRuntime } from '../../helpers/runtime-process';
import { makeTempDir } from '../../helpers/temp-dir';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds (or fails after `limitMs`): waits for a fact, never asserts how long it took. */
async function until(what: string, check: () => boolean, limitMs = 15_000): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > limitMs) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

describe('safe apply in a real runtime', () => {
  const t = useStubbedRuntime();

  it('a folder swapped for a symlink to an outside folder before accept_all: failed with the reason, the outside file untouched', async () => {
    const outside = makeTempDir('agentcli-outside-');
    writeFileSync(path.join(outside, 'a.txt'), 'outside original\n');
    const cwd = makeWorkspace({ 'dir/a.txt': 'inside\n' }, t.stub.origin);
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'dir/a.txt', content: 'proposed\n' } }] }, { text: 'proposed' });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'edit dir/a.txt' });
    const ready = await rt.waitForEvent('change_batch_ready');
    rmSync(path.join(cwd, 'dir'), { recursive: true });
    symlinkSync(outside, path.join(cwd, 'dir'));
    const decided = await rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' });
    assert.equal(decided.results[0]!.status, 'failed');
    assert.match(decided.results[0]!.error!, /^dir\/a\.txt now resolves outside the workspace through a symlink, to \S+a\.txt; not written/);
    assert.ok(decided.results[0]!.error!.includes(path.join(outside, 'a.txt')));
    assert.equal(readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'outside original\n');
    assert.deepEqual(readdirSync(outside), ['a.txt'], 'no temp file left outside either');
    assert.equal(rt.events.some((e) => e.type === 'directory_access_request'), false);
  });

  it('a runtime killed mid-apply: the next runtime in the workspace rolls the batch back and says so on initialize', async () => {
    const originals: Record<string, string> = { 'one.txt': 'one\n', 'two.txt': 'two\n', 'three.txt': 'three\n' };
    const cwd = makeWorkspace(originals, t.stub.origin);
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'one.txt', content: 'ONE\n' } },
          { name: 'write_file', arguments: { path: 'two.txt', content: 'TWO\n' } },
          { name: 'write_file', arguments: { path: 'new/four.txt', content: 'FOUR\n' } },
          { name: 'delete_file', arguments: { path: 'three.txt' } },
        ],
      },
      { text: 'done' },
    );
    const env = testEnv();
    const rt = await t.start(cwd, { env: { ...env, AGENTCLI_TEST_APPLY_DELAY_MS: '400' } });
    await rt.request('prompt', { message: 'change them' });
    const ready = await rt.waitForEvent('change_batch_ready');
    rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' }).catch(() => undefined);
    await until('the first file is written', () => readFileSync(path.join(cwd, 'one.txt'), 'utf8') === 'ONE\n');
    rt.proc.kill('SIGKILL');
    await new Promise((resolve) => rt.proc.once('exit', resolve));
    assert.equal(existsSync(path.join(cwd, 'three.txt')), true, 'killed before the whole batch landed');
    const journals = path.join(env.HOME!, '.agentcli', 'state', 'apply-journal');
    assert.equal(readdirSync(journals).length, 1, 'the journal of the interrupted batch is left');
    // What a kill in the middle of an atomic write leaves: a fresh temp file of the dead runtime.
    const tempOfKilled = path.join(cwd, `.two.txt.${rt.proc.pid}.0123456789ab.tmp`);
    writeFileSync(tempOfKilled, 'TW');

    const next = await t.start(cwd, { env, initialize: false });
    const init = await next.request('initialize', { protocolVersion: PROTOCOL_VERSION });
    assert.equal(init.recoveredApplies?.length, 1, JSON.stringify(init));
    const report = init.recoveredApplies![0]!;
    assert.equal(report.batchId, ready.batch.id);
    assert.equal(report.outcome, 'rolled_back');
    assert.equal(report.files.find((f) => f.path === 'one.txt')?.status, 'restored');
    for (const [rel, content] of Object.entries(originals)) assert.equal(readFileSync(path.join(cwd, rel), 'utf8'), content, rel);
    assert.equal(existsSync(path.join(cwd, 'new')), false);
    assert.deepEqual(readdirSync(journals), [], 'the journal is gone');
    await until("the killed runtime's temp file is removed (however young)", () => !existsSync(tempOfKilled));

    const again = await t.start(cwd, { env, initialize: false });
    assert.equal((await again.request('initialize', { protocolVersion: PROTOCOL_VERSION })).recoveredApplies, undefined, 'reported once');
  });

  it('a one-shot run (-p) after a crash rolls back before its tools run and says so on stderr', async () => {
    const cwd = makeWorkspace({ 'one.txt': 'one\n', 'two.txt': 'two\n' }, t.stub.origin);
    t.stub.enqueue(
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'one.txt', content: 'ONE\n' } },
          { name: 'write_file', arguments: { path: 'two.txt', content: 'TWO\n' } },
        ],
      },
      { text: 'done' },
    );
    const env = testEnv();
    const rt = await t.start(cwd, { env: { ...env, AGENTCLI_TEST_APPLY_DELAY_MS: '5000' } });
    await rt.request('prompt', { message: 'change them' });
    const ready = await rt.waitForEvent('change_batch_ready');
    rt.request('decideChanges', { batchId: ready.batch.id, decision: 'accept_all' }).catch(() => undefined);
    await until('the first file is written', () => readFileSync(path.join(cwd, 'one.txt'), 'utf8') === 'ONE\n');
    rt.proc.kill('SIGKILL');
    await new Promise((resolve) => rt.proc.once('exit', resolve));

    t.stub.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'one.txt' } }] }, { text: 'read' });
    const r = await runCli(['-p', 'read one.txt'], cwd, env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`agentcli: change batch ${ready.batch.id} was interrupted mid-apply \\(since [^)]+\\); rolled back: 1 file\\(s\\) restored to their originals, 1 untouched`));
    const toolResults = t.stub.requests.at(-1)!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    assert.match(toolResults[0].content, /one\n|one/);
    assert.doesNotMatch(toolResults[0].content, /ONE/, 'the tool read the rolled-back file');
    assert.equal(readFileSync(path.join(cwd, 'one.txt'), 'utf8'), 'one\n');
  });

  it("temp files of dead writers are removed at start; a live writer's are kept", async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const deadTemp = `.a.txt.${dead}.0123456789ab.tmp`;
    const liveTemp = `.a.txt.${process.pid}.0123456789ab.tmp`;
    const cwd = makeWorkspace({ 'a.txt': 'a\n', [deadTemp]: 'partial', [`src/${deadTemp}`]: 'partial', [liveTemp]: 'in flight' }, t.stub.origin);
    const past = new Date(Date.now() - 120_000); // older than the minute a temp file is always given
    for (const rel of [deadTemp, `src/${deadTemp}`, liveTemp]) utimesSync(path.join(cwd, rel), past, past);
    await t.start(cwd);
    await until('the dead writer’s temp files are gone', () => !existsSync(path.join(cwd, deadTemp)) && !existsSync(path.join(cwd, 'src', deadTemp)));
    assert.ok(existsSync(path.join(cwd, liveTemp)));
    assert.ok(existsSync(path.join(cwd, 'a.txt')));
  });
});
