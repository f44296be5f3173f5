import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PermissionPolicy } from '../../../src/runtime/permissions/policy';
import { protectedReason } from '../../../src/runtime/permissions/protected-paths';
import { tempDir } from '../tools/helpers';

const PROTECTED_IN_WORKSPACE = [
  '.git/config',
  '.git/hooks/pre-commit',
  'sub/.git/HEAD',
  '.env',
  '.env.local',
  'app/.env.production',
  'id_rsa',
  'keys/id_ed25519',
  'id_ecdsa',
  'certs/server.pem',
  'certs/server.key',
  'certs/store.p12',
  'certs/store.pfx',
  '.ssh/config',
  'home/.ssh/authorized_keys',
  '.npmrc',
  'pkg/.pypirc',
  '.netrc',
  '.git-credentials',
  '.docker/config.json',
  '.aws/credentials',
  '.aws/config',
  '.azure/accessTokens.json',
  '.config/gcloud/credentials.db',
  '.kube/config',
];

const ORDINARY = ['src/env.ts', 'environment.md', '.envrc', 'docs/keys.md', 'config.json', '.docker/notes.md', 'aws/config', 'kube/config', '.gitignore', 'src/git/hooks.ts'];

describe('protected paths', () => {
  let root: string;
  let cleanup: () => void;
  const ctx = () => ({ cwd: root, home: '/home/nobody-here' });
  const abs = (rel: string) => path.join(root, rel);

  beforeEach(() => {
    const t = tempDir();
    root = realpathSync(t.dir);
    cleanup = t.cleanup;
  });
  afterEach(() => cleanup());

  it('protects git folders, environment files, private keys and credential files in the workspace', () => {
    for (const rel of PROTECTED_IN_WORKSPACE) assert.ok(protectedReason(abs(rel), ctx()), rel);
    assert.match(protectedReason(abs('.git/hooks/pre-commit'), ctx())!, /git folder/);
    assert.match(protectedReason(abs('.env.local'), ctx())!, /environment file/);
    assert.match(protectedReason(abs('id_rsa'), ctx())!, /private key/);
    assert.match(protectedReason(abs('.aws/credentials'), ctx())!, /credentials/);
  });

  it('leaves ordinary files alone', () => {
    for (const rel of ORDINARY) assert.equal(protectedReason(abs(rel), ctx()), undefined, rel);
  });

  it('neither unrestricted mode nor an allow rule lifts the protection', () => {
    const policy = new PermissionPolicy({ cwd: root, rules: { allow: ['Write', 'Write(**)', 'Bash'], ask: [], deny: [] }, mode: 'unrestricted' });
    for (const rel of PROTECTED_IN_WORKSPACE) {
      const verdict = policy.evaluate({ ruleTool: 'Write', paths: [abs(rel)], description: `Write ${rel}` }, false);
      assert.equal(verdict.decision, 'ask', rel);
      assert.equal(verdict.cause, 'protected', rel);
      assert.deepEqual(verdict.suggestedRules, [], `${rel}: no rule is offered that could never apply`);
    }
    const redirect = policy.evaluate({ ruleTool: 'Bash', command: 'echo x > .git/hooks/post-checkout', description: 'Run' }, false);
    assert.equal(redirect.cause, 'protected');
    assert.equal(policy.evaluate({ ruleTool: 'Write', paths: [abs('src/a.ts')], description: 'Write' }, false).decision, 'allow');
  });

  it('judges a symlink on its target: an alias of a hook, existing or not yet, and a symlinked .git folder', () => {
    mkdirSync(abs('.git/hooks'), { recursive: true });
    writeFileSync(abs('.git/config'), '[core]\n');
    symlinkSync('.git/hooks/pre-commit', abs('notes.txt')); // dangling: writing through it creates the hook
    symlinkSync('.git/config', abs('settings.ini'));
    symlinkSync('.env', abs('env-copy'));
    for (const alias of ['notes.txt', 'settings.ini', 'env-copy']) {
      assert.match(protectedReason(abs(alias), ctx()) ?? '', /resolves through a symlink to .*: it is/, alias);
    }
    const other = tempDir();
    try {
      const realGit = realpathSync(other.dir);
      mkdirSync(path.join(realGit, 'hooks'));
      const ws = tempDir();
      const wsRoot = realpathSync(ws.dir);
      symlinkSync(realGit, path.join(wsRoot, '.git'));
      // What a write tool hands the policy: the resolved path, which has no `.git` in it.
      assert.ok(protectedReason(path.join(realGit, 'hooks', 'pre-push'), { cwd: wsRoot }));
      ws.cleanup();
    } finally {
      other.cleanup();
    }
  });

  it("protects the git folder a .git file points to (worktrees, submodules) and a worktree's common folder", () => {
    const main = tempDir();
    try {
      const mainRoot = realpathSync(main.dir);
      const gitDir = path.join(mainRoot, 'separate-git', 'worktrees', 'wt');
      mkdirSync(gitDir, { recursive: true });
      writeFileSync(path.join(gitDir, 'commondir'), '../..\n');
      writeFileSync(abs('.git'), `gitdir: ${gitDir}\n`);
      assert.ok(protectedReason(path.join(gitDir, 'HEAD'), ctx()), 'the worktree gitdir');
      assert.match(protectedReason(path.join(mainRoot, 'separate-git', 'hooks', 'pre-commit'), ctx())!, /repository's git folder/);
      assert.equal(protectedReason(path.join(mainRoot, 'elsewhere.txt'), ctx()), undefined);
      assert.ok(protectedReason(abs('.git'), ctx()), 'the .git file itself');
    } finally {
      main.cleanup();
    }
  });
});
