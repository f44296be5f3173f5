import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asSeenNow, AutomodeStateStore, type SavedAutomode } from '../../../src/runtime/automode/state-store';
import { clip, describeIteration, iterationPrompt, IterationRecorder } from '../../../src/runtime/automode/iteration-log';
import { worktreesDir } from '../../../src/runtime/automode/controller';

/** A pid that is not running: a child that already exited would do, but a huge pid above pid_max never runs. */
const DEAD_PID = 2 ** 22 + 12345;

function saved(over: Partial<SavedAutomode> & { state?: SavedAutomode['status']['state'] } = {}): SavedAutomode {
  return {
    id: 'automode_abc123',
    pid: DEAD_PID,
    cwd: '/work/project',
    status: { active: true, state: over.state ?? 'running', iteration: 2, maxIterations: 5, startedAt: '2026-01-01T00:00:00.000Z', worktree: '/w/t', branch: 'agentcli/auto-abc123' },
    iterations: [],
    updatedAt: '',
    ...over,
  };
}

describe('auto-mode state store', () => {
  it('a running run of a process that is gone is reported failed and interrupted, naming the worktree left', () => {
    const seen = asSeenNow(saved());
    assert.equal(seen.status.state, 'failed');
    assert.equal(seen.status.interrupted, true);
    assert.equal(seen.status.active, false);
    assert.match(seen.status.error ?? '', /stopped during iteration 2 of 5; its worktree \/w\/t and branch agentcli\/auto-abc123 are left/);
  });

  it('a finished run, or one of a live process, is reported as saved', () => {
    const done = saved({ state: 'completed' });
    assert.equal(asSeenNow(done), done);
    const live = saved({ pid: process.pid });
    assert.equal(asSeenNow(live), live);
  });

  it('latestFor picks the newest run of the folder and skips unreadable files and other folders', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'automode-state-'));
    const store = new AutomodeStateStore(home);
    store.save(saved({ id: 'automode_old1' }));
    store.save({ ...saved({ id: 'automode_new1' }), status: { ...saved().status, startedAt: '2026-02-01T00:00:00.000Z' } });
    store.save({ ...saved({ id: 'automode_other' }), cwd: '/elsewhere', status: { ...saved().status, startedAt: '2026-03-01T00:00:00.000Z' } });
    writeFileSync(path.join(store.dir, 'automode_broken.json'), '{not json');
    assert.equal(store.latestFor('/work/project')?.id, 'automode_new1');
    assert.equal(store.latestFor('/nowhere'), undefined);
    assert.throws(() => store.save(saved({ id: '../escape' })), /not an auto-mode id/);
  });

  it('worktrees go under the cache folder, never under ~/.agentcli (protected: every write there would ask)', () => {
    assert.equal(worktreesDir('/home/u', {}), '/home/u/.cache/agentcli/worktrees');
    assert.equal(worktreesDir('/home/u', { XDG_CACHE_HOME: '/c' }), '/c/agentcli/worktrees');
    assert.equal(worktreesDir('/home/u', { XDG_CACHE_HOME: 'relative' }), '/home/u/.cache/agentcli/worktrees');
  });
});

describe('auto-mode iteration log', () => {
  it('records the tool calls with args and results, errors, and the summary of its own run only', () => {
    const rec = new IterationRecorder(1, 'run_1');
    const base = { sessionId: 's', runId: 'run_1', turnId: 't' };
    rec.observe({ ...base, type: 'tool_start', toolCallId: 'c1', toolName: 'read_file', args: { path: 'a.txt' } });
    rec.observe({ ...base, type: 'tool_end', toolCallId: 'c1', toolName: 'read_file', durationMs: 1, success: false, error: 'file not found: a.txt' });
    rec.observe({ ...base, runId: 'run_other', type: 'tool_start', toolCallId: 'c2', toolName: 'grep', args: {} });
    rec.observe({ ...base, runId: 'run_other', type: 'tool_end', toolCallId: 'c2', toolName: 'grep', durationMs: 1, success: true, output: 'x' });
    rec.observe({ sessionId: 's', runId: 'run_1', type: 'error', code: 'provider_error', error: 'the server closed the stream' });
    rec.observe({ ...base, type: 'message_end', messageId: 'm', content: 'could not read a.txt' });
    const entry = rec.finish('completed', undefined);
    assert.deepEqual(entry.toolCalls, [{ tool: 'read_file', args: { path: 'a.txt' }, success: false, error: 'file not found: a.txt' }]);
    assert.deepEqual(entry.errors, ['provider_error: the server closed the stream']);
    assert.equal(entry.summary, 'could not read a.txt');
    assert.match(describeIteration(entry), /read_file a\.txt: failed \(file not found: a\.txt\)/);
    const prompt = iterationPrompt('fix it', 2, 4, entry);
    assert.match(prompt, /Auto-mode goal: fix it/);
    assert.match(prompt, /iteration 2 of at most 4/);
    assert.match(prompt, /could not read a\.txt/);
    assert.match(iterationPrompt('fix it', 1, 4, undefined), /first iteration/);
  });

  it('clips long outputs keeping head and tail', () => {
    const long = `${'a'.repeat(5000)}${'z'.repeat(5000)}`;
    const out = clip(long, 1000);
    assert.ok(out.length < 1100);
    assert.ok(out.startsWith('aaa') && out.endsWith('zzz'));
    assert.match(out, /characters left out/);
  });
});
