import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { ToolInputError } from '../../../src/runtime/tools/types';
import { isWithin, resolveToolPath } from '../../../src/runtime/workspace/paths';
import { tempDir } from '../tools/helpers';

describe('resolveToolPath', () => {
  let root: string;
  let outside: string;
  const cleanups: Array<() => void> = [];

  beforeEach(() => {
    const ws = tempDir();
    const other = tempDir();
    cleanups.push(ws.cleanup, other.cleanup);
    root = ws.dir;
    outside = other.dir;
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'a.ts'), 'a');
    writeFileSync(path.join(outside, 'secret.txt'), 's');
  });
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('resolves relative paths against the root with posix relative form', () => {
    const r = resolveToolPath(root, 'src/a.ts');
    assert.equal(r.absolute, path.join(root, 'src', 'a.ts'));
    assert.equal(r.real, path.join(root, 'src', 'a.ts'));
    assert.equal(r.relative, 'src/a.ts');
    assert.equal(r.inside, true);
  });

  it('normalizes .. and treats the root itself as inside', () => {
    assert.equal(resolveToolPath(root, 'src/../src/./a.ts').relative, 'src/a.ts');
    const self = resolveToolPath(root, 'src/..');
    assert.equal(self.inside, true);
    assert.equal(self.relative, '.');
  });

  it('marks paths escaping with .. as outside and keeps them absolute', () => {
    const r = resolveToolPath(root, '../elsewhere/file.txt');
    assert.equal(r.inside, false);
    assert.equal(r.relative, path.resolve(root, '../elsewhere/file.txt'));
  });

  it('treats a symlink pointing out of the workspace as outside, also for files not yet created below it', () => {
    symlinkSync(outside, path.join(root, 'link'));
    const existing = resolveToolPath(root, 'link/secret.txt');
    assert.equal(existing.inside, false);
    assert.equal(existing.real, path.join(outside, 'secret.txt'));
    const missing = resolveToolPath(root, 'link/new/deeper.txt');
    assert.equal(missing.inside, false);
    assert.equal(missing.real, path.join(outside, 'new', 'deeper.txt'));
  });

  it('treats a missing path inside the workspace as inside', () => {
    const r = resolveToolPath(root, 'new/dir/file.txt');
    assert.equal(r.inside, true);
    assert.equal(r.relative, 'new/dir/file.txt');
  });

  it('accepts absolute paths and expands ~', () => {
    assert.equal(resolveToolPath(root, path.join(root, 'src/a.ts')).relative, 'src/a.ts');
    assert.equal(resolveToolPath(root, '~/x.txt').absolute, path.join(homedir(), 'x.txt'));
  });

  it('rejects empty paths and NUL bytes with a ToolInputError', () => {
    assert.throws(() => resolveToolPath(root, ''), ToolInputError);
    assert.throws(() => resolveToolPath(root, '  '), /path is empty/);
    assert.throws(() => resolveToolPath(root, 'a\0b'), /NUL/);
  });

  it('follows a dangling symlink to where a write through it would land (inside or outside)', () => {
    symlinkSync(path.join(outside, 'planted.txt'), path.join(root, 'out-link.txt'));
    symlinkSync('src/not-yet.ts', path.join(root, 'in-link.ts'));
    symlinkSync('missing-dir/x.txt', path.join(root, 'chain.txt'));
    symlinkSync(path.join(root, 'chain.txt'), path.join(root, 'chain2.txt'));
    const out = resolveToolPath(root, 'out-link.txt');
    assert.equal(out.real, path.join(outside, 'planted.txt'));
    assert.equal(out.inside, false);
    assert.equal(resolveToolPath(root, 'in-link.ts').real, path.join(root, 'src', 'not-yet.ts'));
    assert.equal(resolveToolPath(root, 'chain2.txt').real, path.join(root, 'missing-dir', 'x.txt'));
    symlinkSync('loop-b', path.join(root, 'loop-a'));
    symlinkSync('loop-a', path.join(root, 'loop-b'));
    assert.equal(typeof resolveToolPath(root, 'loop-a/x').real, 'string', 'a symlink loop ends');
  });
});

describe('isWithin', () => {
  /** The definition the string fast path must agree with. */
  const byRelative = (parent: string, child: string) => {
    const rel = path.relative(parent, child);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  };

  it('agrees with path.relative on climbing, prefix, separator and dot cases', () => {
    const parents = ['/ws', '/ws/', '/', '/ws/sub', 'rel', 'rel/'];
    const rests = ['', '/', '/a', '/a/b.ts', 'x', '-other', '/..', '/../etc', '/a/../../etc', '/a/..', '/..a', '/a..b', '/./a', '//a', '\\..\\x', '/.', '/a/./../..'];
    for (const parent of parents) {
      for (const rest of rests) {
        const child = parent + rest;
        assert.equal(isWithin(parent, child), byRelative(parent, child), `isWithin(${JSON.stringify(parent)}, ${JSON.stringify(child)})`);
      }
    }
  });

  it('refuses a sibling whose name starts with the folder name, and a climb out', () => {
    assert.equal(isWithin('/ws', '/ws-secrets/key'), false);
    assert.equal(isWithin('/ws', '/ws/../etc/passwd'), false);
    assert.equal(isWithin('/ws', '/ws/src/../../etc'), false);
    assert.equal(isWithin('/ws', '/ws/src/a.ts'), true);
    assert.equal(isWithin('/ws', '/ws'), true);
  });
});
