import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { EARLY_SEND_ATTR, PROMPT_BOX_ATTRS, PROMPT_BOX_CLASS, PROMPT_BOX_SELECTOR } from '../../src/shared/chat/promptBox';
import { BUNDLE_ELEMENT_ID, contentSecurityPolicy, makeNonce, missingFilesHtml, webviewHtml } from '../../src/extension/chat/webview-html';

/** Text a bundle may well contain that would end or derail a script element if it were put in the page as it is. */
const HOSTILE_SCRIPT = 'const a = "</script><script>alert(1)</script>"; /<!--<script>/.test(x); // </SCRIPT >\nvar b = 1 < 2 && "&amp;";';

describe('extension webview HTML', () => {
  const html = webviewHtml({ cspSource: 'https://file+.vscode-resource.example', script: HOSTILE_SCRIPT, styles: ['body { color: red }', 'p::after { content: "</style><script>x</script>" }'], nonce: 'N0nce' });
  const doc = new JSDOM(html).window.document; // parses like a browser; runs nothing

  it('has a strict CSP: nothing by default, scripts only with the nonce, no remote origins', () => {
    const csp = contentSecurityPolicy('https://res', 'N0nce');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-N0nce'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:\/\/(?!res)/);
    assert.equal(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'), contentSecurityPolicy('https://file+.vscode-resource.example', 'N0nce'));
  });

  it('carries the bundle whole as a data block, whatever it contains, and runs it through one nonce\'d script', () => {
    const scripts = [...doc.querySelectorAll('script')];
    assert.equal(scripts.length, 2, 'the data block and the bootstrap, nothing the bundle text could have opened');
    const data = doc.getElementById(BUNDLE_ELEMENT_ID);
    assert.equal(data?.getAttribute('type'), 'application/json', 'a data block: never executed');
    assert.equal(JSON.parse(data.textContent ?? ''), HOSTILE_SCRIPT);
    assert.doesNotMatch(data.textContent ?? '', /</);
    const runner = scripts.find((s) => s !== data);
    assert.equal(runner?.getAttribute('nonce'), 'N0nce');
    assert.equal(runner?.hasAttribute('src'), false);
    assert.match(runner?.textContent ?? '', /script\.nonce = 'N0nce'.*URL\.createObjectURL\(new Blob\(\[text\]/);
    assert.equal(doc.querySelectorAll('link').length, 0, 'nothing is fetched');
    assert.equal(doc.querySelectorAll('[data-nonce]').length, 0, 'the nonce is in no attribute a style rule could read');
  });

  it('puts the styles in nonce\'d style elements, a closing tag in them escaped', () => {
    const styles = [...doc.querySelectorAll('style')];
    assert.equal(styles.length, 2);
    assert.ok(styles.every((s) => s.getAttribute('nonce') === 'N0nce'));
    assert.equal(styles[0]?.textContent, 'body { color: red }');
    assert.equal(styles[1]?.textContent, 'p::after { content: "<\\/style><script>x</script>" }');
  });

  it('carries the prompt box, as the composer makes it, before the scripts: typing needs no code', () => {
    const box = doc.querySelector(PROMPT_BOX_SELECTOR);
    assert.ok(box, 'the box is in the page');
    for (const [name, value] of Object.entries(PROMPT_BOX_ATTRS)) assert.equal(box.getAttribute(name), value, name);
    assert.equal(box.className, PROMPT_BOX_CLASS);
    assert.equal(box.getAttribute(EARLY_SEND_ATTR), 'waiting', 'an early Enter is held back until the composer adopts the box');
    assert.equal(box.closest('.composer-row')?.parentElement?.className, 'composer', 'in the place the composer will have it');
    assert.ok(box.compareDocumentPosition(doc.getElementById(BUNDLE_ELEMENT_ID)!) & 4 /* FOLLOWING */, 'before the bundle');
  });

  it('makes a fresh unguessable nonce each time', () => {
    const a = makeNonce();
    assert.match(a, /^[A-Za-z0-9]{20,}$/);
    assert.notEqual(a, makeNonce());
  });

  it('says which file is missing and how to fix it when the panel cannot load, and runs nothing', () => {
    const page = new JSDOM(missingFilesHtml('dist/webview/<x>.js')).window.document;
    assert.equal(page.querySelectorAll('script').length, 0);
    assert.match(page.body.textContent ?? '', /dist\/webview\/<x>\.js is missing from the agentcli extension\. Reinstall the extension/);
  });
});
