import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { fileLinkTarget, renderMarkdown, StreamingMarkdown } from '../../webview-ui/src/view/markdown';

const dom = new JSDOM('<!doctype html><html><body></body></html>');
const g = globalThis as Record<string, unknown>;
const domGlobals = ['window', 'document', 'Node', 'Element', 'HTMLElement', 'DocumentFragment', 'NodeFilter'];
const added: string[] = [];

// renderMarkdown binds DOMPurify to the global `window` on first use. The globals exist only during these tests:
// other suites in the same process (e.g. HTTP clients that refuse to run in a browser) must not see a `window`.
describe('webview markdown rendering', () => {
  before(() => {
    for (const name of domGlobals) {
      if (g[name] !== undefined) continue;
      g[name] = (dom.window as unknown as Record<string, unknown>)[name];
      added.push(name);
    }
  });
  after(() => {
    for (const name of added) delete g[name];
  });

  function render(md: string, opened: Array<[string, number | undefined]> = [], copied: string[] = []): HTMLElement {
    const host = dom.window.document.createElement('div');
    host.appendChild(renderMarkdown(md, { openFile: (p, l) => opened.push([p, l]), copy: (t) => copied.push(t) }));
    return host;
  }

  it('strips script tags, event handlers and javascript: links', () => {
    const host = render([
      'hello <script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '<div onclick="alert(3)">x</div>',
      '[click](javascript:alert(4))',
      '<a href="JaVaScRiPt:alert(5)">y</a>',
      '<iframe src="https://example.invalid"></iframe>',
      '<style>body{display:none}</style>',
      '<form action="https://example.invalid"><input type="text" name="q"></form>',
    ].join('\n\n'));
    const html = host.innerHTML;
    assert.doesNotMatch(html, /<script|onerror|onclick|javascript:|<iframe|<style|<img|<form|type="text"/i);
    assert.match(host.textContent ?? '', /hello/);
    for (const a of Array.from(host.querySelectorAll('a'))) assert.equal(a.getAttribute('href'), null, 'links carry no href');
  });

  it('removes style attributes and unknown classes', () => {
    const host = render('<span style="position:fixed" class="evil">x</span> and `code`');
    assert.doesNotMatch(host.innerHTML, /style=|evil/);
    assert.equal(host.querySelector('code')?.textContent, 'code');
  });

  it('highlights known languages, keeps unknown ones plain, and adds a copy button that copies the source', () => {
    const copied: string[] = [];
    const host = render('```ts\nconst a: number = 1;\n```\n\n```cobol\nDISPLAY "X".\n```', [], copied);
    const blocks = host.querySelectorAll('.code-block');
    assert.equal(blocks.length, 2);
    assert.ok(blocks[0]?.querySelector('.hljs-keyword'), 'typescript is highlighted');
    assert.equal(blocks[1]?.querySelector('[class^="hljs-"]'), null, 'unknown language stays plain');
    (blocks[0]?.querySelector('[data-testid="code-copy"]') as HTMLButtonElement).click();
    assert.deepEqual(copied, ['const a: number = 1;\n']);
  });

  it('does not let highlighted source smuggle markup', () => {
    const host = render('```html\n<script>alert(1)</script><img src=x onerror=alert(1)>\n```');
    assert.equal(host.querySelector('script'), null);
    assert.equal(host.querySelector('img'), null);
    assert.match(host.querySelector('code')?.textContent ?? '', /<script>alert\(1\)<\/script>/);
  });

  it('turns workspace paths into open-file links and leaves web links inert', () => {
    const opened: Array<[string, number | undefined]> = [];
    const host = render('[a](src/a.ts#L12) and [b](https://example.invalid/x)', opened);
    const [fileLink, webLink] = Array.from(host.querySelectorAll('a'));
    assert.ok(fileLink?.classList.contains('file-link'));
    fileLink?.dispatchEvent(new dom.window.MouseEvent('click', { bubbles: true }));
    assert.deepEqual(opened, [['src/a.ts', 12]]);
    assert.ok(webLink?.classList.contains('inert-link'));
    assert.equal(webLink?.title, 'https://example.invalid/x');
  });

  it('recognizes file link targets', () => {
    assert.deepEqual(fileLinkTarget('src/a%20b.ts'), { path: 'src/a b.ts', line: undefined });
    assert.deepEqual(fileLinkTarget('file:///w/a.ts#L3-L9'), { path: '/w/a.ts', line: 3 });
    assert.equal(fileLinkTarget('https://x.invalid'), undefined);
    assert.equal(fileLinkTarget('vscode:extension/x'), undefined);
    assert.equal(fileLinkTarget('#anchor'), undefined);
  });

  it('renders an unfinished code fence while streaming', () => {
    const host = render('Here:\n```js\nconst x = 1');
    assert.match(host.querySelector('code')?.textContent ?? '', /const x = 1/);
  });

  it('a streamed answer, rendered block by block, ends up as the whole text rendered at once', () => {
    const answer = [
      '# Plan', '', 'First **bold** words and a [link](src/a.ts#L2).', '', '- one', '- two', '', '  - nested', '',
      '```ts', 'const a: number = 1;', '', 'const b = 2;', '```', '', '> quoted', '', '1. first', '2. second', '',
      '| a | b |', '|---|---|', '| 1 | 2 |', '', '<img src=x onerror="alert(1)"> after', '', 'The end.',
    ].join('\n');
    const hooks = { openFile: () => undefined, copy: () => undefined };
    const root = dom.window.document.createElement('div');
    const stream = new StreamingMarkdown(root, hooks);
    for (let i = 3; i < answer.length; i += 7) stream.update(answer.slice(0, i));
    stream.update(answer);
    assert.equal(root.innerHTML, render(answer).innerHTML);
    assert.equal(root.querySelector('img'), null, 'sanitized block by block too');
    stream.update('Something else entirely');
    assert.equal(root.innerHTML, render('Something else entirely').innerHTML, 'a text that is not a continuation starts over');
  });
});
