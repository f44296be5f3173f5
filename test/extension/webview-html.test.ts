import assert from 'node:assert/strict';
import { contentSecurityPolicy, makeNonce, webviewHtml } from '../../src/extension/chat/webview-html';

describe('extension webview HTML', () => {
  const html = webviewHtml({ cspSource: 'https://file+.vscode-resource.example', scriptUri: 'https://res/dist/webview.js', styleUris: ['https://res/dist/webview.css'], nonce: 'N0nce' });

  it('has a strict CSP: nothing by default, scripts only with the nonce, no remote origins', () => {
    const csp = contentSecurityPolicy('https://res', 'N0nce');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N0nce'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:\/\/(?!res)/);
    assert.ok(html.includes(`content="${csp.replaceAll('https://res', 'https://file+.vscode-resource.example')}"`));
  });

  it('loads the bundle and styles with the nonce, and nothing else', () => {
    assert.match(html, /<script nonce="N0nce" src="https:\/\/res\/dist\/webview.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/res\/dist\/webview.css" nonce="N0nce">/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
  });

  it('makes a fresh unguessable nonce each time', () => {
    const a = makeNonce();
    assert.match(a, /^[A-Za-z0-9]{20,}$/);
    assert.notEqual(a, makeNonce());
  });

  it('escapes attribute values', () => {
    assert.ok(webviewHtml({ cspSource: 'x', scriptUri: 'a"b', styleUris: [], nonce: 'n' }).includes('src="a&quot;b"'));
  });
});
