/**
 * What the .vsix holds, as vsce itself decides it from .vscodeignore (its listFiles API, the list `vsce ls` prints):
 * over a scratch copy of the manifest and ignore file with every kind of file the repository has (sources, maps,
 * tests, node_modules, other bundles), and over the real folder when it has been built.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { webviewResources } from '../../src/extension/chat/webview-resources';
import { requirePrerequisite } from '../helpers/prerequisite';
import { makeTempDir } from '../helpers/temp-dir';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const vsce = require('@vscode/vsce') as {
  listFiles(o: { cwd: string; packageManager: number }): Promise<string[]>;
  PackageManager: { None: number };
};
const root = path.resolve(__dirname, '..', '..');

/** Allowed in the package: exactly these, plus anything under media/. */
const ALLOWED = new Set(['package.json', 'README.md', 'dist/extension.js', 'dist/extension-body.js', 'dist/webview/webview.js', 'dist/webview/webview.css', 'dist/agentcli.js']);
const allowed = (f: string) => ALLOWED.has(f) || f.startsWith('media/');
const list = (cwd: string) => vsce.listFiles({ cwd, packageManager: vsce.PackageManager.None }).then((l) => l.map((f) => f.replace(/\\/g, '/')).sort());

describe('packaged extension contents (.vscodeignore, as vsce lists them)', function () {
  this.timeout(30000);
  let dir: string;

  before(() => {
    dir = makeTempDir('agentcli-vsix-');
    for (const f of ['package.json', '.vscodeignore', 'README.md']) fs.copyFileSync(path.join(root, f), path.join(dir, f));
    const files = [
      'dist/extension.js', 'dist/extension-body.js', 'dist/extension-body.js.map', 'dist/agentcli.js', 'dist/sdk.js', 'dist/sdk.js.map', 'dist/protocol.js',
      'dist/types/sdk/index.d.ts', 'dist/webview/webview.js', 'dist/webview/webview.js.map', 'dist/webview/webview.css',
      'dist/webview.js', // a stale bundle from before it moved into dist/webview/
      'media/icon.png', 'media/agentcli.svg', 'media/webview/chat.css',
      'src/extension/extension.ts', 'webview-ui/src/main.ts', 'test/extension/manifest.test.ts', 'node_modules/zod/index.js',
      'scripts/e2e-run.ts', 'demo-workspace/README.md', '.vscode-test-run/e2e/log.txt', 'tsconfig.json', 'esbuild.mjs', 'agentcli.vsix',
    ];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), 'x');
    }
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds the manifest, README, the bundles (extension entry and body, webview, CLI), the webview style sheet and media/, nothing else', async () => {
    assert.deepEqual(await list(dir), [
      'README.md', 'dist/agentcli.js', 'dist/extension-body.js', 'dist/extension.js', 'dist/webview/webview.css', 'dist/webview/webview.js',
      'media/agentcli.svg', 'media/icon.png', 'media/webview/chat.css', 'package.json',
    ]);
  });

  it('the built folder packages only allowed files: no source maps, tests, sources or node_modules', async function () {
    requirePrerequisite(this, fs.existsSync(path.join(root, 'dist', 'extension.js')) ? undefined : 'dist/extension.js is not built (npm run build)');
    const files = await list(root);
    for (const f of files) assert.ok(allowed(f), `${f} would be packaged`);
    for (const f of files) assert.doesNotMatch(f, /\.map$|^test\/|^src\/|node_modules/);
    for (const f of ['package.json', 'dist/extension.js', 'dist/extension-body.js', 'dist/webview/webview.js', 'dist/agentcli.js']) assert.ok(files.includes(f), `${f} is not packaged`);
  });

  it('packages everything the webview loads', async () => {
    const files = await list(dir);
    const r = webviewResources(dir);
    for (const f of [r.script, ...r.styles]) assert.ok(files.includes(f), `the webview loads ${f}, which is not packaged`);
  });
});
