import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../src/runtime/changes/atomic-write';
import { recoverInterruptedApplies } from '../../../src/runtime/changes/apply-recovery';
import { ApplyJournal, journalDir, journalFileName } from '../../../src/runtime/changes/journal';
import { SymlinkRedirectError } from '../../../src/runtime/changes/safe-target';
import { removeStaleTempFiles } from '../../../src/runtime/changes/stale-temp-files';
import { ChangeBatchStore } from '../../../src/runtime/changes/store';
import { writeFileTool } from '../../../src/runtime/tools/write-file';
import { ToolInputError } from '../../../src/runtime/tools/types';
import { DirectFiles } from '../../../src/runtime/workspace/files';
import { makeContext, tempDir } from '../tools/helpers';

/** The id of a process that has exited (and been reaped). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '0']).pid;
  assert.ok(pid);
  return pid;
}

/** Creates a file last modified two minutes ago (older than the sweep's minimum age). */
function ageFile(file: string): void {
  writeFileSync(file, 'partial');
  const past = new Date(Date.now() - 120_000);
  utimesSync(file, past, past);
}

/** What a killed runtime leaves: the journal and its progress log, the log's file closed without `done`. */
async function crash(journal: ApplyJournal): Promise<void> {
  await (journal as unknown as { progress: FileHandle }).progress.close();
}

describe('safe apply', () => {
  let root: string;
  let outside: string;
  let stateDir: string;
  const cleanups: Array<() => void> = [];
  const abs = (rel: string) => path.join(root, rel);

  beforeEach(() => {
    const dirs = [tempDir(), tempDir(), tempDir()];
    cleanups.push(...dirs.map((d) => d.cleanup));
    [root, outside, stateDir] = dirs.map((d) => d.dir) as [string, string, string];
    mkdirSync(abs('dir'));
    writeFileSync(abs('dir/a.txt'), 'inside\n');
    writeFileSync(path.join(outside, 'a.txt'), 'outside original\n');
  });
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  const newStore = () => new ChangeBatchStore({ root, stateDir, sweepDelayMs: 60_000 });

  describe('re-resolving at the moment of writing', () => {
    it('a folder swapped for a symlink after the proposal: failed, naming the real target; the outside file untouched', async () => {
      const store = newStore();
      store.beginRun('run1');
      await store.propose(abs('dir/a.txt'), 'proposed\n');
      await store.propose(abs('b.txt'), 'fine\n');
      const batch = store.finalize()!;
      rmSync(abs('dir'), { recursive: true });
      symlinkSync(outside, abs('dir'));
      const results = await store.decide(batch.id, 'accept_all');
      const swapped = results.find((r) => r.path === 'dir/a.txt')!;
      assert.equal(swapped.status, 'failed');
      assert.match(swapped.error!, /dir\/a\.txt now resolves outside the workspace through a symlink, to .*a\.txt; not written/);
      assert.ok(swapped.error!.includes(path.join(outside, 'a.txt')), swapped.error);
      assert.equal(readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'outside original\n');
      assert.equal(results.find((r) => r.path === 'b.txt')!.status, 'applied', 'the other files of the batch still land');
    });

    it('a file that itself became a symlink pointing outside is refused', async () => {
      const store = newStore();
      store.beginRun('run1');
      await store.propose(abs('dir/a.txt'), 'proposed\n');
      const batch = store.finalize()!;
      rmSync(abs('dir/a.txt'));
      symlinkSync(path.join(outside, 'a.txt'), abs('dir/a.txt'));
      const [result] = await store.decide(batch.id, 'accept_all');
      assert.equal(result!.status, 'failed');
      assert.match(result!.error!, /outside the workspace through a symlink/);
      assert.equal(readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'outside original\n');
    });

    it('a swap to elsewhere inside the workspace is refused too (the path no longer means what was reviewed)', async () => {
      mkdirSync(abs('.git/hooks'), { recursive: true });
      const store = newStore();
      store.beginRun('run1');
      await store.propose(abs('hooks/pre-commit'), 'evil\n');
      const batch = store.finalize()!;
      symlinkSync(abs('.git/hooks'), abs('hooks'));
      const [result] = await store.decide(batch.id, 'accept_all');
      assert.equal(result!.status, 'failed');
      assert.match(result!.error!, /somewhere else in the workspace through a symlink/);
      assert.equal(existsSync(abs('.git/hooks/pre-commit')), false);
    });

    it('writeFileAtomic refuses a redirected path and leaves no temp file', async () => {
      rmSync(abs('dir'), { recursive: true });
      symlinkSync(outside, abs('dir'));
      await assert.rejects(writeFileAtomic(abs('dir/a.txt'), 'x'), SymlinkRedirectError);
      assert.deepEqual(readdirSync(outside), ['a.txt']);
    });

    it('a direct write_file writes where it was judged: a swap between the check and the run is refused', async () => {
      const files = new DirectFiles(root);
      const ctx = makeContext(files, outside);
      const args = { path: 'dir/a.txt', content: 'direct\n' };
      const target = writeFileTool.permissionTarget(args, { cwd: root });
      assert.deepEqual(target.paths, [abs('dir/a.txt')]);
      rmSync(abs('dir'), { recursive: true });
      symlinkSync(outside, abs('dir'));
      await assert.rejects(writeFileTool.run(args, ctx), (e: Error) => e instanceof ToolInputError && /outside the workspace through a symlink/.test(e.message));
      assert.equal(readFileSync(path.join(outside, 'a.txt'), 'utf8'), 'outside original\n');
    });
  });

  describe('journal and recovery', () => {
    it('a finished apply leaves no journal behind', async () => {
      const store = newStore();
      store.beginRun('run1');
      await store.propose(abs('dir/a.txt'), 'new\n');
      const batch = store.finalize()!;
      await store.decide(batch.id, 'accept_all');
      assert.equal(existsSync(journalDir(stateDir, root)), false);
      assert.equal(readFileSync(abs('dir/a.txt'), 'utf8'), 'new\n');
    });

    /** A batch as a killed runtime leaves it: journaled, `written` of its files on disk and logged, then no more. */
    async function interruptedBatch(written: number): Promise<{ pid: number }> {
      writeFileSync(abs('b.txt'), 'b original\n');
      const entries = [
        { changeId: 'c1', path: 'dir/a.txt', absolutePath: abs('dir/a.txt'), original: 'inside\n', proposed: 'A new\n', createdDirs: [] },
        { changeId: 'c2', path: 'new/deep/c.txt', absolutePath: abs('new/deep/c.txt'), original: null, proposed: 'C\n', createdDirs: [abs('new'), abs('new/deep')] },
        { changeId: 'c3', path: 'b.txt', absolutePath: abs('b.txt'), original: 'b original\n', proposed: null, mode: 0o640, createdDirs: [] },
      ];
      const journal = await ApplyJournal.begin(stateDir, { root, batchId: 'batch_x', entries });
      for (const e of entries.slice(0, written)) {
        await journal.willWrite(e.changeId);
        if (e.proposed === null) rmSync(e.absolutePath);
        else await writeFileAtomic(e.absolutePath, e.proposed);
      }
      await crash(journal);
      const pid = deadPid();
      const dir = journalDir(stateDir, root);
      renameSync(path.join(dir, journalFileName('batch_x', process.pid)), path.join(dir, journalFileName('batch_x', pid)));
      return { pid };
    }

    it('rolls an interrupted batch back to the originals, created folders included', async () => {
      await interruptedBatch(3);
      const { recovered } = await recoverInterruptedApplies(root, stateDir);
      assert.equal(recovered.length, 1);
      assert.equal(recovered[0]!.outcome, 'rolled_back');
      assert.deepEqual(
        recovered[0]!.files.map((f) => [f.path, f.status]),
        [
          ['dir/a.txt', 'restored'],
          ['new/deep/c.txt', 'restored'],
          ['b.txt', 'restored'],
        ],
      );
      assert.equal(readFileSync(abs('dir/a.txt'), 'utf8'), 'inside\n');
      assert.equal(existsSync(abs('new')), false, 'folders the batch created are gone');
      assert.equal(readFileSync(abs('b.txt'), 'utf8'), 'b original\n');
      assert.equal(existsSync(journalDir(stateDir, root)), false, 'the journal is removed');
      assert.deepEqual((await recoverInterruptedApplies(root, stateDir)).recovered, [], 'recovered once');
    });

    it('files not reached are reported unchanged; a file someone changed since is left alone as a conflict', async () => {
      await interruptedBatch(1);
      writeFileSync(abs('dir/a.txt'), 'edited by the user after the crash\n');
      const { recovered } = await recoverInterruptedApplies(root, stateDir);
      assert.deepEqual(
        recovered[0]!.files.map((f) => f.status),
        ['conflict', 'unchanged', 'unchanged'],
      );
      assert.match(recovered[0]!.files[0]!.error!, /changed by someone else/);
      assert.equal(readFileSync(abs('dir/a.txt'), 'utf8'), 'edited by the user after the crash\n');
    });

    it('a batch whose files were all written (done logged) is reported completed and not touched', async () => {
      writeFileSync(abs('b.txt'), 'b\n');
      const entries = [{ changeId: 'c1', path: 'b.txt', absolutePath: abs('b.txt'), original: 'b\n', proposed: 'B\n', createdDirs: [] }];
      const journal = await ApplyJournal.begin(stateDir, { root, batchId: 'batch_done', entries });
      await journal.willWrite('c1');
      writeFileSync(abs('b.txt'), 'B\n');
      // Killed between logging `done` and removing the journal: simulated by copying the journal aside first.
      const dir = journalDir(stateDir, root);
      const saved = readFileSync(path.join(dir, journalFileName('batch_done', process.pid)), 'utf8');
      await journal.complete();
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, journalFileName('batch_done', deadPid())), saved);
      writeFileSync(path.join(dir, 'batch_done.progress'), 'write c1\ndone\n');
      const { recovered } = await recoverInterruptedApplies(root, stateDir);
      assert.equal(recovered[0]!.outcome, 'completed');
      assert.deepEqual(recovered[0]!.files.map((f) => f.status), ['applied']);
      assert.equal(readFileSync(abs('b.txt'), 'utf8'), 'B\n');
    });

    it("leaves a live process's journal alone", async () => {
      writeFileSync(abs('b.txt'), 'b\n');
      const entries = [{ changeId: 'c1', path: 'b.txt', absolutePath: abs('b.txt'), original: 'b\n', proposed: 'B\n', createdDirs: [] }];
      await crash(await ApplyJournal.begin(stateDir, { root, batchId: 'batch_live', entries }));
      assert.deepEqual((await recoverInterruptedApplies(root, stateDir)).recovered, []);
      assert.ok(existsSync(path.join(journalDir(stateDir, root), journalFileName('batch_live', process.pid))));
    });

    it('the store recovers before its first apply and reports it once', async () => {
      await interruptedBatch(2);
      const store = newStore();
      const reports = await store.recover();
      assert.equal(reports[0]?.batchId, 'batch_x');
      assert.equal(await store.recover(), reports, 'memoized');
      assert.equal(readFileSync(abs('dir/a.txt'), 'utf8'), 'inside\n');
    });
  });

  describe('temp files of dead writers', () => {
    it('removes exact-pattern temp files of dead processes only; keeps live ones, look-alikes and symlinks', async () => {
      const dead = deadPid();
      mkdirSync(abs('deep/er'), { recursive: true });
      const deadTemps = [`dir/.a.txt.${dead}.0123456789ab.tmp`, `deep/er/.x.json.${dead}.ffffffffffff.tmp`];
      const kept = [
        `dir/.a.txt.${process.pid}.0123456789ab.tmp`, // a live writer
        `dir/.a.txt.${dead}.0123.tmp`, // not the exact pattern
        `dir/a.txt.${dead}.0123456789ab.tmp`, // no leading dot
        `dir/.a.txt.${dead}.0123456789ab.tmp.bak`,
      ];
      for (const rel of [...deadTemps, ...kept]) ageFile(abs(rel));
      const recent = `dir/.b.txt.${dead}.0123456789ab.tmp`;
      writeFileSync(abs(recent), 'maybe a writer in another pid namespace');
      kept.push(recent);
      symlinkSync(path.join(outside, 'a.txt'), abs(`.link.${dead}.0123456789ab.tmp`));
      const result = await removeStaleTempFiles(root);
      for (const rel of deadTemps) assert.equal(existsSync(abs(rel)), false, rel);
      for (const rel of kept) assert.ok(existsSync(abs(rel)), rel);
      assert.equal(result.removed.length, 2);
      assert.ok(existsSync(path.join(outside, 'a.txt')));
    });

    it("removes a young temp file only when its writer is known dead (a recovered journal's runtime)", async () => {
      const dead = deadPid();
      const young = abs(`dir/.a.txt.${dead}.0123456789ab.tmp`);
      writeFileSync(young, 'partial');
      await removeStaleTempFiles(root);
      assert.ok(existsSync(young), 'kept: maybe a writer in another pid namespace');
      await removeStaleTempFiles(root, [abs('dir')], { deadPids: [dead] });
      assert.equal(existsSync(young), false);
    });

    it('is bounded: it stops after the folder limit', async () => {
      const dead = deadPid();
      for (let i = 0; i < 5; i++) {
        mkdirSync(abs(`f${i}`));
        ageFile(abs(`f${i}/.t.${dead}.0123456789ab.tmp`));
      }
      const result = await removeStaleTempFiles(root, [], { maxFolders: 3 });
      assert.equal(result.foldersSearched, 3);
      assert.ok(result.removed.length < 5);
    });
  });
});
