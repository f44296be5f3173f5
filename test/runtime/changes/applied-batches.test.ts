import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AppliedBatches } from '../../../src/runtime/changes/applied-batches';
import { MAX_UNDO_BATCHES, MAX_UNDO_FILE_BYTES, MAX_UNDO_SESSION_BYTES } from '../../../src/protocol/undo-limits';
import type { JournalEntry } from '../../../src/runtime/changes/journal';
import { protectedReason } from '../../../src/runtime/permissions/protected-paths';
import { makeTempDir } from '../../helpers/temp-dir';

const entry = (root: string, rel: string, original: string | null, proposed: string | null): JournalEntry => ({
  changeId: `c_${rel}`,
  path: rel,
  absolutePath: path.join(root, rel),
  original,
  proposed,
  createdDirs: [],
});

describe('applied batches kept for undo (limits, protected paths)', () => {
  it('a file side over the limit is kept as not undoable with the reason; the others stay undoable', async () => {
    const root = makeTempDir('agentcli-undo-');
    const applied = new AppliedBatches({ root, stateDir: makeTempDir('agentcli-state-') });
    const big = 'x'.repeat(MAX_UNDO_FILE_BYTES + 1);
    await applied.record('b1', 'r1', [entry(root, 'big.txt', 'small', big), entry(root, 'a.txt', 'a', 'A')]);
    const [batch] = applied.list();
    assert.deepEqual(batch?.files.map((f) => f.state), ['not_undoable', 'undoable']);
    assert.match(batch!.files[0]!.reason!, /^big\.txt is too large to keep for undo \(2\.0 MiB; the limit is 2\.0 MiB a file\)$/);
  });

  it(`keeps the last ${MAX_UNDO_BATCHES} batches, and drops the oldest when the contents pass ${MAX_UNDO_SESSION_BYTES / 1024 / 1024} MiB`, async () => {
    const root = makeTempDir('agentcli-undo-');
    const applied = new AppliedBatches({ root, stateDir: makeTempDir('agentcli-state-') });
    for (let i = 1; i <= MAX_UNDO_BATCHES + 1; i++) await applied.record(`b${i}`, 'r', [entry(root, 'a.txt', `${i - 1}`, `${i}`)]);
    assert.deepEqual(applied.list().map((b) => b.batchId).slice(0, 2), [`b${MAX_UNDO_BATCHES + 1}`, `b${MAX_UNDO_BATCHES}`]);
    assert.equal(applied.list().length, MAX_UNDO_BATCHES);
    const nearlyTwoMiB = 'y'.repeat(MAX_UNDO_FILE_BYTES - 16);
    for (let i = 0; i < 10; i++) await applied.record(`big${i}`, 'r', [entry(root, `f${i}.txt`, nearlyTwoMiB, `${nearlyTwoMiB}!`)]);
    const kept = applied.list().map((b) => b.batchId);
    assert.ok(kept.length < 10 && kept[0] === 'big9', `the newest stays, older ones go: ${kept.join(', ')}`);
  });

  it('a protected file is skipped unless named in paths; named, it is reverted', async () => {
    const root = makeTempDir('agentcli-undo-');
    writeFileSync(path.join(root, '.env.example'), 'NEW=1\n');
    writeFileSync(path.join(root, 'a.txt'), 'A\n');
    const applied = new AppliedBatches({ root, stateDir: makeTempDir('agentcli-state-') });
    applied.policy = { ...applied.policy, protectedReason: (abs) => protectedReason(abs, { cwd: root }) };
    await applied.record('b1', 'r1', [entry(root, '.env.example', 'OLD=1\n', 'NEW=1\n'), entry(root, 'a.txt', 'a\n', 'A\n')]);
    const first = await applied.undo({});
    assert.deepEqual(first.results.map((r) => [r.path, r.status]), [['.env.example', 'skipped'], ['a.txt', 'reverted']]);
    assert.match(first.results[0]!.reason!, /^\.env\.example is protected \(it is an environment file .*\): name it to undo it$/);
    assert.equal(readFileSync(path.join(root, '.env.example'), 'utf8'), 'NEW=1\n');
    const named = await applied.undo({ paths: ['.env.example'] });
    assert.deepEqual(named.results.map((r) => [r.path, r.status]), [['.env.example', 'reverted']]);
    assert.equal(readFileSync(path.join(root, '.env.example'), 'utf8'), 'OLD=1\n');
  });
});
