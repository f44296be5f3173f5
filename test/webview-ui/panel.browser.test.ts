/**
 * The built chat panel in a real browser (Debian's chromium via playwright-core), with a fake VS Code API that records
 * what the panel posts. Covers what the pure tests cannot: DOM wiring, virtualization in practice, CSP compatibility.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ids = { sessionId: 's1', runId: 'r1', turnId: 't1' };
const state = { provider: 'localrunner', model: 'small-model', permissionMode: 'interactive', planMode: false, yolo: { active: false }, running: false };

describe('chat panel in a browser', function () {
  this.timeout(60_000);
  let dir: string;
  let browser: Browser;
  let page: Page;

  before(async function () {
    if (!existsSync(CHROMIUM)) this.skip(); // no browser on this machine: the pure tests still cover the logic
    dir = mkdtempSync(join(tmpdir(), 'webview-ui-'));
    await esbuild.build({ bundle: true, platform: 'browser', target: 'es2022', format: 'iife', entryPoints: ['webview-ui/src/main.ts'], outfile: join(dir, 'webview.js'), logLevel: 'error' });
    writeFileSync(join(dir, 'chat.css'), readFileSync('media/webview/chat.css'));
    // The same kind of CSP the extension sets: no inline script, no remote content.
    writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src file:; script-src file: 'nonce-test'; img-src file: data:;">
<link rel="stylesheet" href="chat.css"></head><body><div id="root"></div>
<script nonce="test" src="webview.js"></script></body></html>`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--allow-file-access-from-files'] });
  });

  after(async () => {
    await browser?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 420, height: 700 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // A string, not a function: the test transpiler would wrap functions with helpers that do not exist in the page.
    await page.addInitScript(`
      window.__posted = [];
      window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => window.__state, setState: (s) => { window.__state = s; } });
    `);
    await page.goto(`file://${join(dir, 'index.html')}`);
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'ready'));
    assert.deepEqual(errors, []);
  });

  afterEach(async () => page?.close());

  const send = (msg: unknown) => page.evaluate((m) => window.postMessage(m, '*'), msg);
  const posted = () => page.evaluate(() => (window as unknown as { __posted: Array<{ type: string; [k: string]: unknown }> }).__posted);
  const tid = (id: string) => `[data-testid="${id}"]`;

  it('sends a prompt with Enter, streams the answer as markdown and shows Stop while running', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await page.fill(tid('prompt-input'), 'explain @src/a.ts please');
    await page.press(tid('prompt-input'), 'Enter');
    const prompt = (await posted()).find((m) => m.type === 'sendPrompt');
    assert.equal(prompt?.text, 'explain @src/a.ts please');
    assert.deepEqual(prompt?.mentions, ['src/a.ts']);
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'explain @src/a.ts please' } });
    await page.waitForSelector(`${tid('stop')}:visible`);
    await send({ type: 'event', event: { type: 'message_update', ...ids, messageId: 'm1', delta: 'Here is **bold** and\n\n```ts\nconst a = 1;\n```\n<img src=x onerror="window.__pwned=1">' } });
    await page.waitForSelector(`${tid('assistant-message')} strong`);
    assert.equal(await page.locator(`${tid('assistant-message')} .hljs-keyword`).count(), 1);
    assert.equal(await page.locator(`${tid('assistant-message')} img`).count(), 0);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    await page.click(tid('stop'));
    assert.ok((await posted()).some((m) => m.type === 'abort'));
    assert.equal(await page.locator(tid('user-message')).count(), 1, 'the prompt is shown once');
  });

  it('Shift+Enter adds a new line and sends nothing; Enter then sends both lines', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    const box = page.locator(tid('prompt-input'));
    await box.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal(await box.inputValue(), 'first line\nsecond line');
    assert.ok(!(await posted()).some((m) => m.type === 'sendPrompt'), 'Shift+Enter sent the prompt');
    await page.keyboard.press('Enter');
    const prompt = (await posted()).find((m) => m.type === 'sendPrompt');
    assert.equal(prompt?.text, 'first line\nsecond line');
    assert.equal(await box.inputValue(), '', 'the box is cleared after sending');
  });

  it('answers a permission card, acknowledges it when shown and collapses it when resolved', async () => {
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'permission_request', ...ids, requestId: 'q1', toolCallId: 'k1', tool: 'bash', description: 'Run a command', command: 'npm test', suggestedRules: ['Bash(npm test)'], choices: ['once', 'session', 'always', 'deny', 'alternative'] } });
    await page.waitForSelector(tid('permission-card'));
    assert.equal(await page.textContent(tid('permission-command')), 'npm test');
    await page.click(tid('permission-alternative'));
    await page.fill(tid('permission-alternative-input'), 'run npm run lint instead');
    await page.press(tid('permission-alternative-input'), 'Enter');
    const msgs = await posted();
    assert.ok(msgs.some((m) => m.type === 'permissionShown' && m.requestId === 'q1'));
    assert.ok(msgs.some((m) => m.type === 'permissionDecision' && m.choice === 'deny' && m.alternative === 'run npm run lint instead'));
    await send({ type: 'event', event: { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'denied' } });
    await page.waitForSelector(tid('permission-resolved'));
    assert.equal(await page.locator(tid('permission-card')).count(), 0);
  });

  it('lists a change batch and sends review and decisions', async () => {
    const change = (id: string, path: string, kind: string) => ({ id, path, absolutePath: `/w/${path}`, kind, originalContent: null, proposedContent: 'x', additions: 3, deletions: 1 });
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: { id: 'b1', runId: 'r1', status: 'pending', changes: [change('c1', 'a.ts', 'create'), change('c2', 'b.ts', 'modify')] } } });
    await page.waitForSelector(tid('batch-card'));
    assert.equal(await page.locator(tid('batch-file')).count(), 2);
    await page.click(tid('batch-review'));
    await page.locator(tid('batch-review-file')).nth(1).click();
    await page.click(tid('batch-accept-selected'));
    const msgs = await posted();
    assert.ok(msgs.some((m) => m.type === 'reviewBatch' && m.batchId === 'b1' && m.changeId === undefined));
    assert.ok(msgs.some((m) => m.type === 'reviewBatch' && m.changeId === 'c2'));
    assert.ok(msgs.some((m) => m.type === 'pickBatchFiles' && m.batchId === 'b1'));
    await send({ type: 'batchResult', batchId: 'b1', results: [{ changeId: 'c1', path: 'a.ts', status: 'applied' }, { changeId: 'c2', path: 'b.ts', status: 'rejected' }] });
    await page.waitForSelector(tid('batch-file-result'));
    assert.deepEqual(await page.locator(tid('batch-file-result')).allTextContents(), ['applied', 'rejected']);
    assert.equal(await page.locator(tid('batch-accept-all')).count(), 0);
  });

  it('shows a crashed runtime with its reason and restarts on click', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'crashed', reason: 'exited with code 1', stderrTail: ['boom'] } });
    await page.waitForSelector(`${tid('runtime-banner')}:visible`);
    assert.equal(await page.textContent(tid('runtime-crash-reason')), 'exited with code 1');
    await page.click(tid('restart-runtime'));
    assert.ok((await posted()).some((m) => m.type === 'restartRuntime'));
    await send({ type: 'runtimeStatus', runtime: { status: 'ready' } });
    await page.waitForSelector(tid('runtime-banner'), { state: 'hidden' });
  });

  it('keeps a 2,000-item session virtualized, pinned to the bottom, and reaches the top', async () => {
    const items = Array.from({ length: 2000 }, (_, i) => i % 2 === 0
      ? { kind: 'user', id: `user:${i}`, text: `question ${i}`, context: [] }
      : { kind: 'assistant', id: `msg:${i}`, messageId: `${i}`, runId: `r${i}`, text: `answer **${i}**\n\n- a\n- b`, streaming: false });
    await send({ type: 'init', items, state, runtime: { status: 'ready' } });
    await page.waitForFunction(() => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('answer 1999') === true);
    const rendered = await page.locator('.item').count();
    assert.ok(rendered > 0 && rendered < 100, `only items near the viewport are in the DOM (got ${rendered})`);
    await page.evaluate(() => {
      const t = document.querySelector('[data-testid="transcript"]')!;
      t.scrollTop = 0;
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('question 0') === true);
    // Scrolled up: a new delta must not yank the view back to the bottom.
    await send({ type: 'event', event: { type: 'message_update', sessionId: 's1', runId: 'r9', turnId: 't', messageId: 'new', delta: 'more' } });
    await page.waitForTimeout(100);
    assert.ok((await page.evaluate(() => document.querySelector('[data-testid="transcript"]')!.scrollTop)) < 1000);
  });

  it('a user scroll in the same frame as the view\'s own scroll unpins it', async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({ kind: 'user', id: `user:${i}`, text: `question ${i}`, context: [] }));
    await send({ type: 'init', items, state, runtime: { status: 'ready' } });
    await page.waitForFunction(() => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('question 199') === true);
    // A new item makes the pinned view scroll itself to the bottom in the next frame; the user scrolls to the top right
    // after it in that same frame, so the browser reports both as one scroll event.
    await page.evaluate(() => {
      window.addEventListener('message', () => requestAnimationFrame(() => {
        document.querySelector('[data-testid="transcript"]')!.scrollTop = 0;
      }), { once: true });
      window.postMessage({ type: 'event', event: { type: 'message_update', sessionId: 's1', runId: 'r9', turnId: 't', messageId: 'new', delta: 'more' } }, '*');
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="transcript"]')?.textContent?.includes('question 0') === true);
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid="transcript"]')!.scrollTop), 0, 'the view stays where the user put it');
  });

  it('reports an invalid message instead of failing', async () => {
    await send({ type: 'state', state: { provider: 'x' } });
    await send({ type: 'nonsense' });
    const errs = (await posted()).filter((m) => m.type === 'webviewError');
    assert.equal(errs.length, 2);
    assert.match(String(errs[0]?.message), /invalid "state" message to the webview: state\.model/);
  });
});
