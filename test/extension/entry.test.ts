import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { requirePrerequisite } from '../helpers/prerequisite';
import { makeTempDir } from '../helpers/temp-dir';

const root = path.resolve(__dirname, '..', '..');
/** One activation of the built extension (entry + body) against a fake `vscode`, in a fresh process, then deactivation. */
const harness = path.join(root, 'bench', 'extension-activation.cjs');

function activateOnce(env: NodeJS.ProcessEnv): string {
  const run = spawnSync(process.execPath, [harness], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return (JSON.parse(run.stdout) as { cache: string }).cache;
}

describe('extension entry: the code cache', function () {
  this.timeout(30_000);

  it('the first activation of a build makes the cache, later ones use it; a bad one is replaced, other builds\' are removed', function () {
    requirePrerequisite(this, fs.existsSync(path.join(root, 'dist', 'extension-body.js')) ? undefined : 'the extension is not built (npm run build)');
    const cacheHome = makeTempDir('agentcli-ext-cache-');
    const dir = path.join(cacheHome, 'agentcli');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'extension-0123456789abcdef-v20.0.0.v8cache'), 'an older build');
    fs.writeFileSync(path.join(dir, 'main-0123456789abcdef.js'), 'the CLI\'s: not the extension\'s to remove');
    const env = { HOME: cacheHome, XDG_CACHE_HOME: cacheHome };
    assert.equal(activateOnce(env), 'missing');
    const caches = fs.readdirSync(dir).filter((f) => f.startsWith('extension-'));
    assert.equal(caches.length, 1, `one cache, the older build's removed: ${caches.join(', ')}`);
    const cache = path.join(dir, caches[0]!);
    assert.match(caches[0]!, new RegExp(`^extension-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}\\.v8cache$`));
    assert.equal(fs.statSync(cache).mode & 0o777, 0o600);
    assert.ok(fs.existsSync(path.join(dir, 'main-0123456789abcdef.js')));
    assert.equal(activateOnce(env), 'used');
    fs.writeFileSync(cache, 'not a code cache');
    assert.equal(activateOnce(env), 'rejected', 'V8 refuses a damaged cache: the extension compiles without it');
    assert.equal(activateOnce(env), 'used', 'and the damaged one was replaced');
  });

  it('AGENTCLI_NO_CODE_CACHE=1 activates without one and writes none', function () {
    requirePrerequisite(this, fs.existsSync(path.join(root, 'dist', 'extension-body.js')) ? undefined : 'the extension is not built (npm run build)');
    const cacheHome = makeTempDir('agentcli-ext-cache-');
    assert.equal(activateOnce({ HOME: cacheHome, XDG_CACHE_HOME: cacheHome, AGENTCLI_NO_CODE_CACHE: '1' }), 'off');
    assert.equal(fs.existsSync(path.join(cacheHome, 'agentcli')), false);
  });
});
