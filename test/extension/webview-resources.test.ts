import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { underRoots, webviewResources } from '../../src/extension/chat/webview-resources';
import { requirePrerequisite } from '../helpers/prerequisite';
import { makeTempDir } from '../helpers/temp-dir';

describe('chat webview resources (localResourceRoots)', () => {
  let dir: string;
  before(() => {
    dir = makeTempDir('agentcli-webview-');
    for (const f of ['dist/webview/webview.js', 'dist/webview/webview.css', 'media/webview/chat.css', 'media/webview/a.css', 'media/webview/notes.txt', 'media/icon.png']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), 'x');
    }
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('roots are the webview bundle directory and media/webview only', () => {
    assert.deepEqual(webviewResources(dir).roots, ['dist/webview', 'media/webview']);
  });

  it('everything the HTML loads is inside a root; the host bundle, the runtime and the rest of media are not', () => {
    const r = webviewResources(dir);
    assert.equal(r.script, 'dist/webview/webview.js');
    assert.deepEqual(r.styles, ['dist/webview/webview.css', 'media/webview/a.css', 'media/webview/chat.css']);
    for (const f of [r.script, ...r.styles]) assert.ok(underRoots(f, r.roots), `${f} is outside the roots`);
    for (const f of ['dist/extension.js', 'dist/extension-body.js', 'dist/agentcli.js', 'dist/webview.js', 'dist/webview-evil/x.js', 'media/icon.png', 'package.json']) {
      assert.ok(!underRoots(f, r.roots), `${f} would be loadable from the webview`);
    }
  });

  it('leaves out the bundle style sheet when esbuild emitted none', () => {
    fs.rmSync(path.join(dir, 'dist/webview/webview.css'));
    assert.deepEqual(webviewResources(dir).styles, ['media/webview/a.css', 'media/webview/chat.css']);
  });

  it('the real extension folder has the bundle where the webview loads it (after npm run build)', function () {
    const root = path.resolve(__dirname, '..', '..');
    requirePrerequisite(this, fs.existsSync(path.join(root, 'dist', 'extension.js')) ? undefined : 'dist/extension.js is not built (npm run build)');
    const r = webviewResources(root);
    for (const f of [r.script, ...r.styles]) assert.ok(fs.existsSync(path.join(root, f)), `${f} is missing`);
  });
});
