import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorkspace, runCli, useStubbedRuntime } from '../../helpers/runtime-process';
import { gitIn, initRepo, statusOf } from './git-fixture';

describe('agentcli auto', () => {
  const t = useStubbedRuntime();

  const script = () =>
    t.stub.enqueue(
      { toolCalls: [{ name: 'write_file', arguments: { path: 'app.txt', content: 'version 2\n' } }] },
      { text: 'bumped the version' },
      { toolCalls: [{ name: 'complete_task', arguments: { summary: 'version bumped to 2' } }] },
      { text: 'done' },
    );

  it('--worktree --yolo: works on a branch, prints progress, the summary and the diff, then applies it here', async () => {
    const cwd = makeWorkspace({ 'app.txt': 'version 1\n' }, t.stub.origin);
    initRepo(cwd);
    script();
    const res = await runCli(['auto', 'bump the version', '--max-iterations', '3', '--worktree', '--yolo'], cwd);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stderr, /\[auto\] working in .* on branch agentcli\/auto-/);
    assert.match(res.stderr, /\[auto\] iteration 1\/3 completed: bumped the version/);
    assert.match(res.stderr, /\[auto\] iteration 2\/3 completed: version bumped to 2/);
    assert.match(res.stdout, /auto-mode completed after 2 iteration\(s\): version bumped to 2/);
    const branch = /branch (agentcli\/auto-\S+)/.exec(res.stdout)?.[1];
    assert.ok(branch, res.stdout);
    assert.match(res.stdout, new RegExp(`git merge ${branch.replace('/', '\\/')}`));
    assert.match(res.stdout, /-version 1\n\+version 2/);
    assert.match(res.stderr, /applied: app\.txt/);
    assert.equal(readFileSync(path.join(cwd, 'app.txt'), 'utf8'), 'version 2\n');
    assert.equal(gitIn(cwd, 'show', `${branch}:app.txt`), 'version 2\n');
  });

  it('--worktree without --yolo and nobody to ask: the diff is printed, the workspace stays as it was', async () => {
    const cwd = makeWorkspace({ 'app.txt': 'version 1\n' }, t.stub.origin);
    initRepo(cwd);
    script();
    const res = await runCli(['auto', 'bump the version', '--max-iterations', '3', '--worktree'], cwd);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /\+version 2/);
    assert.match(res.stderr, /not applied here/);
    assert.equal(readFileSync(path.join(cwd, 'app.txt'), 'utf8'), 'version 1\n');
    assert.equal(statusOf(cwd), '');
  });

  it('stops at --max-iterations when the goal is never declared met', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    t.stub.enqueue({ text: 'looked' }, { text: 'looked again' });
    const res = await runCli(['auto', 'look around', '--max-iterations', '2'], cwd);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /auto-mode completed after 2 iteration\(s\): stopped after 2 iteration\(s\) \(maxIterations\)/);
    assert.equal(t.stub.requests.length, 2);
  });

  it('--worktree outside a git repository, and a missing goal, are clear errors (exit 2)', async () => {
    const cwd = makeWorkspace({}, t.stub.origin);
    const noGit = await runCli(['auto', 'x', '--worktree'], cwd);
    assert.equal(noGit.code, 2);
    assert.match(noGit.stderr, /needs a git repository.*git init/);
    assert.equal(t.stub.requests.length, 0);
    assert.ok(!existsSync(path.join(cwd, '.git')));
    const noGoal = await runCli(['auto', '--max-iterations', '2'], cwd);
    assert.equal(noGoal.code, 2);
    assert.match(noGoal.stderr, /needs a goal/);
    const patch = await runCli(['auto', 'x', '--patch'], cwd);
    assert.equal(patch.code, 2);
    assert.match(patch.stderr, /--patch does not apply to agentcli auto/);
  });
});
