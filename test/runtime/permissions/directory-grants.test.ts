import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DirectoryGrants } from '../../../src/runtime/permissions/directory-grants';
import { makeTempDir } from '../../helpers/temp-dir';

describe('DirectoryGrants', () => {
  let root: string;
  beforeEach(() => {
    root = fs.realpathSync(makeTempDir('agentcli-grants-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('matches granted folders and what is inside them, not siblings with the same prefix', () => {
    const grants = new DirectoryGrants([path.join(root, 'data')]);
    assert.ok(grants.isGranted(path.join(root, 'data')));
    assert.ok(grants.isGranted(path.join(root, 'data', 'a', 'b.txt')));
    assert.ok(!grants.isGranted(path.join(root, 'database', 'x')));
    assert.ok(!grants.isGranted(root));
  });

  it('resolves symlinked grant folders to their real location', () => {
    fs.mkdirSync(path.join(root, 'real'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
    const grants = new DirectoryGrants([path.join(root, 'link')]);
    assert.ok(grants.isGranted(path.join(root, 'real', 'file.txt')));
  });

  it('adds folders for the session', () => {
    const grants = new DirectoryGrants([]);
    assert.ok(!grants.isGranted(path.join(root, 'x', 'y')));
    grants.grantSession(path.join(root, 'x'));
    assert.ok(grants.isGranted(path.join(root, 'x', 'y')));
  });

  it('new configured folders replace the old ones and keep the session grants', () => {
    const grants = new DirectoryGrants([path.join(root, 'old')]);
    grants.grantSession(path.join(root, 'granted'));
    grants.setConfigured([path.join(root, 'new')]);
    assert.ok(!grants.isGranted(path.join(root, 'old', 'f')));
    assert.ok(grants.isGranted(path.join(root, 'new', 'f')));
    assert.ok(grants.isGranted(path.join(root, 'granted', 'f')));
    assert.deepEqual(grants.list().sort(), [path.join(root, 'granted'), path.join(root, 'new')].sort());
  });
});
