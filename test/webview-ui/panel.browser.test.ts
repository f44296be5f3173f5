/**
 * The built chat panel in a real browser (Debian's chromium via playwright-core), with a fake VS Code API that records
 * what the panel posts. Covers what the pure tests cannot: DOM wiring, virtualization in practice, CSP compatibility.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ids, state, tid, usePanelPage } from './panel-page';

describe('chat panel in a browser', function () {
  this.timeout(60_000);
  const panel = usePanelPage();
  const { send, posted, shot, box } = panel;
  let page: Page;
  beforeEach(() => {
    page = panel.page;
  });

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

  it('Enter shows Stop at once; a prompt refused before its run brings Send back, the prompt marked not sent and back in the box', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await page.fill(tid('prompt-input'), 'first try');
    await page.press(tid('prompt-input'), 'Enter');
    await page.waitForSelector(`${tid('stop')}:visible`); // before any event from the runtime
    assert.equal(await page.locator(`${tid('send')}:visible`).count(), 0);
    const prompt = (await posted()).find((m) => m.type === 'sendPrompt');
    await page.press(tid('prompt-input'), 'Enter'); // nothing more is sent while it runs
    assert.equal((await posted()).filter((m) => m.type === 'sendPrompt').length, 1);
    await send({ type: 'error', message: 'Proposed changes are waiting for your decision.', promptId: prompt?.promptId as string });
    await page.waitForSelector(`${tid('send')}:visible`);
    assert.equal(await page.locator(`${tid('stop')}:visible`).count(), 0);
    await page.waitForSelector(`${tid('user-message')}.failed`);
    assert.equal(await page.inputValue(tid('prompt-input')), 'first try');
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
    const change = (id: string, path: string, kind: string) => ({ id, path, absolutePath: `/w/${path}`, kind, additions: 3, deletions: 1, revision: 1, originalBytes: null, proposedBytes: 1 });
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
    assert.equal(await page.textContent(tid('runtime-crash-reason')), 'Exited with code 1', 'the reason starts with a capital');
    assert.match(String(await page.textContent(tid('runtime-crash-note'))), /restarted agent starts a fresh conversation/);
    await shot('crash-banner');
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

  it('welcomes an empty transcript: model, examples that fill the box, hints; gone once there is an item', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await page.waitForSelector(`${tid('welcome')}:visible`);
    assert.equal(await page.textContent(tid('welcome-model')), 'localrunner · small-model');
    assert.match(String(await page.textContent(tid('welcome'))), /@path.*attaches a file.*Enter.*sends.*Shift\+Enter.*new line/s);
    const rows = await page.$eval(tid('prompt-input'), (e) => (e as HTMLTextAreaElement).rows);
    assert.equal(rows, 2, 'the prompt box shows two rows, so its placeholder is not clipped');
    assert.ok((await box(tid('prompt-input'))).height >= 40, 'the prompt box is two lines tall');
    await shot('welcome');
    assert.equal(await page.locator(tid('welcome-example')).count(), 3);
    const example = String(await page.locator(tid('welcome-example')).nth(1).textContent());
    await page.locator(tid('welcome-example')).nth(1).click();
    assert.equal(await page.inputValue(tid('prompt-input')), example);
    assert.ok(!(await posted()).some((m) => m.type === 'sendPrompt'), 'an example is only put in the box, not sent');
    await page.press(tid('prompt-input'), 'Enter');
    await page.waitForSelector(tid('welcome'), { state: 'hidden' });
    await page.waitForSelector(tid('user-message'));
  });

  it('keeps New chat on one line and gives the model link the free space, with plan and yolo badges', async () => {
    // The side bar width of the e2e screenshots, where the link was cut to "ggufserver · stu…" and New chat wrapped.
    await page.setViewportSize({ width: 300, height: 500 });
    await send({ type: 'init', items: [], state: { ...state, provider: 'ggufserver', model: 'stub-model', planMode: true, yolo: { active: true } }, runtime: { status: 'ready' } });
    await page.waitForSelector(tid('badge-yolo'));
    const button = await box(tid('new-chat'));
    assert.ok(button.height < 30, `New chat wrapped (height ${button.height})`);
    const link = await page.$eval(tid('model-button'), (e) => ({ shown: e.clientWidth, needed: e.scrollWidth }));
    await send({ type: 'contextUsage', usage: { usedTokens: 12_345, contextWindow: 128_000 } });
    await page.waitForTimeout(100);
    await shot('header-badges');
    assert.equal(link.shown, link.needed, 'the model link is cut short although the header has room');
    await page.setViewportSize({ width: 230, height: 500 });
    assert.ok((await box(tid('new-chat'))).height < 30, 'New chat wraps on a narrow panel');
    assert.equal(await page.getAttribute(tid('new-chat'), 'title'), 'New chat: start a new conversation');
    await shot('header-narrow');
    await send({ type: 'init', items: [], state: { ...state, provider: 'ggufserver', model: 'stub-model' }, runtime: { status: 'ready' }, contextUsage: { usedTokens: 12, contextWindow: 4096 } });
    await page.setViewportSize({ width: 290, height: 500 });
    await page.waitForTimeout(100);
    await shot('header-default-sidebar');
    assert.equal(await page.isVisible(tid('context-meter')), true, 'the meter gives way at the default side bar width');
    const fits = await page.$eval(tid('model-button'), (e) => e.clientWidth === e.scrollWidth);
    assert.ok(fits, 'the model link is cut short at the default side bar width');
  });

  it('header: the history button and the context meter (used / window; warns from 80 %; click compacts)', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    assert.equal(await page.isVisible(tid('context-meter')), false, 'no meter before the runtime reports one');
    await page.click(tid('history'));
    await send({ type: 'contextUsage', usage: { usedTokens: 12_345, contextWindow: 128_000 } });
    await page.waitForSelector(`${tid('context-meter')}:visible`);
    assert.equal(await page.textContent(tid('context-meter')), '12k / 128k');
    assert.match(String(await page.getAttribute(tid('context-meter'), 'title')), /about 12,345 of 128,000 tokens \(10%\)/);
    assert.equal(await page.getAttribute(tid('context-meter'), 'data-level'), 'ok');
    await shot('header-meter');
    await page.click(tid('context-meter'));
    assert.deepEqual((await posted()).filter((m) => m.type === 'openHistory' || m.type === 'compactContext').map((m) => m.type), ['openHistory', 'compactContext']);
    await send({ type: 'contextUsage', usage: { usedTokens: 7_000, contextWindow: 8_192 } });
    await page.waitForFunction(() => document.querySelector('[data-testid="context-meter"]')?.getAttribute('data-level') === 'high');
    assert.equal(await page.textContent(tid('context-meter')), '7k / 8.2k');
    await send({ type: 'contextUsage', usage: { usedTokens: 900 } });
    await page.waitForFunction(() => document.querySelector('[data-testid="context-meter"]')?.textContent === '900 tok');
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' }, contextUsage: null });
    await page.waitForSelector(tid('context-meter'), { state: 'hidden' });
  });

  it('header: the sandbox shield is quiet when sandboxed and a warning when unavailable or off', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    assert.equal(await page.isVisible(tid('sandbox-indicator')), false, 'no shield before the runtime reports the sandbox');
    await page.setViewportSize({ width: 290, height: 500 });
    const sandbox = { mode: 'workspace-write', available: true, network: false };
    await send({ type: 'state', state: { ...state, provider: 'ggufserver', model: 'stub-model', sandbox } });
    await page.waitForSelector(`${tid('sandbox-indicator')}:visible`);
    assert.equal(await page.getAttribute(tid('sandbox-indicator'), 'title'), 'Commands run in a sandbox (workspace writable, no network)');
    assert.equal(await page.getAttribute(tid('sandbox-indicator'), 'data-level'), 'ok');
    const fits = await page.$eval(tid('model-button'), (e) => e.clientWidth === e.scrollWidth);
    assert.ok(fits, 'the shield cuts the model link short at the default side bar width');
    await shot('header-sandbox-ok');
    const reason = 'bubblewrap (bwrap) is not installed: install it (apt-get install bubblewrap) or set sandbox.mode to "off"';
    await send({ type: 'state', state: { ...state, provider: 'ggufserver', model: 'stub-model', sandbox: { ...sandbox, available: false, reason } } });
    await page.waitForFunction(() => document.querySelector('[data-testid="sandbox-indicator"]')?.getAttribute('data-level') === 'warn');
    assert.match(String(await page.getAttribute(tid('sandbox-indicator'), 'title')), /cannot start.*apt-get install bubblewrap/);
    await shot('header-sandbox-unavailable');
    await send({ type: 'state', state: { ...state, sandbox: { mode: 'off', available: true, network: true } } });
    await page.waitForFunction(() => /without a sandbox/.test(document.querySelector('[data-testid="sandbox-indicator"]')?.getAttribute('title') ?? ''));
    assert.equal(await page.getAttribute(tid('sandbox-indicator'), 'data-level'), 'warn');
    await send({ type: 'state', state: { ...state, sandbox: { mode: 'read-only', available: true, network: true } } });
    await page.waitForFunction(() => document.querySelector('[data-testid="sandbox-indicator"]')?.getAttribute('title') === 'Commands run in a sandbox (read-only, network allowed)');
  });

  it('a proposed plan: Accept and Revise (with a note) are posted; the accepted plan becomes a live checklist; a reflection is collapsed', async () => {
    await page.setViewportSize({ width: 290, height: 600 });
    await send({ type: 'init', items: [], state: { ...state, planMode: true }, runtime: { status: 'ready' } });
    const steps = [{ title: 'Read src/cli/args.ts to see how flags are parsed', status: 'pending' }, { title: 'Add the --verbose flag', detail: 'with a test', status: 'pending' }];
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'add a verbose flag' } });
    await send({ type: 'event', event: { type: 'plan_proposed', ...ids, planId: 'p1', steps, text: '1. Read\n2. Add' } });
    await send({ type: 'event', event: { type: 'agent_end', ...ids, status: 'completed', text: '' } });
    await page.waitForSelector(tid('plan-accept'));
    assert.equal(await page.locator(tid('plan-step')).count(), 2);
    await shot('plan-proposed');
    await page.click(tid('plan-revise'));
    await page.click(tid('plan-revise-send'));
    assert.equal(await page.getAttribute(tid('plan-revise-input'), 'class'), 'text-input alternative-input invalid', 'an empty note is not sent');
    await page.fill(tid('plan-revise-input'), 'Also update the README');
    await page.keyboard.press('Enter');
    await page.waitForSelector(tid('plan-accept'), { state: 'detached' });
    const decisions = (await posted()).filter((m) => m.type === 'planDecision');
    assert.deepEqual(decisions, [{ type: 'planDecision', planId: 'p1', decision: 'revise', note: 'Also update the README' }]);
    // The extension refused it (e.g. the runtime restarted): the buttons come back.
    await send({ type: 'error', message: 'Could not send the plan back for revision: no proposed plan p1 is waiting' });
    await page.click(tid('plan-accept'));
    await send({ type: 'planAnswered', planId: 'p1', decision: 'accept' });
    await page.waitForFunction(() => document.querySelector('[data-testid="plan-card"]')?.getAttribute('data-status') === 'accepted');
    const r2 = { ...ids, runId: 'r2' };
    await send({ type: 'event', event: { type: 'agent_start', ...r2, prompt: 'The plan was accepted. Carry it out step by step:' } });
    await send({ type: 'event', event: { type: 'plan_update', ...r2, planId: 'p1', steps: [{ ...steps[0], status: 'done', note: 'flags are parsed in parseArgs' }, { ...steps[1], status: 'in_progress' }], change: 'step_started', stepIndex: 1, replans: 0 } });
    await send({ type: 'event', event: { type: 'reflection', ...r2, turnId: 't2', attempt: 1, maxRetries: 2, critique: 'The test file path was wrong; list test/ first.', failedTools: ['read_file'] } });
    await page.waitForSelector(tid('reflection'));
    assert.equal(await page.textContent(tid('plan-progress')), '1 of 2 done');
    assert.deepEqual(await page.$$eval(tid('plan-step'), (els) => els.map((e) => e.getAttribute('data-status'))), ['done', 'in_progress']);
    assert.equal(await page.isVisible('.reflection-body'), false, 'the reflection starts collapsed');
    await page.click('.reflection-summary');
    await page.waitForSelector('.reflection-body:visible');
    await shot('plan-running');
    assert.equal((await posted()).filter((m) => m.type === 'planDecision').length, 2);
  });

  it('lays out a permission card plainly and shows the suggested alternative on the tool card', async () => {
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'clean' } });
    await send({ type: 'event', event: { type: 'permission_request', ...ids, requestId: 'q1', toolCallId: 'k1', tool: 'run_command', description: 'Run: echo wiped > out.txt', command: 'echo wiped > out.txt', suggestedRules: ['Bash(echo:*)'], choices: ['once', 'session', 'always', 'deny', 'alternative'] } });
    const card = page.locator(tid('permission-card'));
    await card.waitFor();
    assert.equal(await card.locator('.card-description').count(), 0, 'the description only repeated the command');
    assert.equal(await page.textContent(tid('permission-rules')), "For this session / Always: allows any echo … command. Always also saves the rule to the project's .agentcli/config.json.");
    assert.deepEqual(await card.locator('button').allTextContents(), ['Allow once', 'Deny', 'Allow for this session', 'Always allow', 'Suggest alternative…']);
    const [once, deny] = [await box(tid('permission-once')), await box(tid('permission-deny'))];
    assert.equal(once.y, deny.y, 'Allow once and Deny share the first row');
    assert.match(String(await page.getAttribute(tid('permission-deny'), 'class')), /\bsecondary\b.*\bdeny\b/, 'Deny is a secondary button of its own style');
    await shot('permission-card');
    await page.click(tid('permission-alternative'));
    const input = page.locator(tid('permission-alternative-input'));
    const before = (await box(tid('permission-alternative-input'))).height;
    await input.fill('Use the npm clean script instead of deleting files by hand, and tell me what it removed, in a list of paths.');
    await input.dispatchEvent('input');
    assert.ok((await box(tid('permission-alternative-input'))).height > before, 'the alternative box grows with its text');
    await shot('permission-alternative');
    await input.press('Enter');
    assert.ok((await posted()).some((m) => m.type === 'permissionDecision' && m.choice === 'deny' && String(m.alternative).startsWith('Use the npm clean script')));
    await send({ type: 'event', event: { type: 'permission_resolved', ...ids, requestId: 'q1', outcome: 'denied', scope: 'once' } });
    await send({ type: 'event', event: { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'run_command', args: { command: 'echo wiped > out.txt' } } });
    await send({ type: 'event', event: { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'run_command', durationMs: 4, success: false, error: 'the user denied it' } });
    const tool = page.locator(tid('tool-card'));
    await tool.locator(tid('permission-resolved')).waitFor();
    assert.equal(await page.locator(tid('permission-resolved')).count(), 1, 'one line for the denial');
    assert.match(String(await tool.locator(tid('permission-resolved')).textContent()), /^Denied; suggested: Use the npm clean script/);
    assert.equal(await tool.locator('.tool-name').textContent(), 'Command not run');
    assert.match(String(await tool.locator('summary').getAttribute('title')), /^run_command/, 'the raw tool name is in the tooltip');
    await shot('permission-denied-on-tool-card');
  });

  it('asks for a folder outside the workspace in plain words, the folder shown once', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'directory_access_request', ...ids, requestId: 'd1', toolCallId: 'k1', path: '/home/user/projects/outside', reason: 'Read /home/user/projects/outside/secret-notes.txt needs read access outside the workspace' } });
    const card = page.locator(tid('directory-card'));
    await card.waitFor();
    assert.equal(await page.textContent(tid('directory-lead')), 'The agent wants to read secret-notes.txt in:');
    assert.equal((await card.textContent())?.split('/home/user/projects/outside').length, 2, 'the folder path is shown once');
    await shot('directory-card');
  });

  it('shows proposed writes as proposed, then their batch result, with the batch card below them', async () => {
    const change = (id: string, path: string) => ({ id, path, absolutePath: `/w/${path}`, kind: 'modify', additions: 1, deletions: 1, revision: 1, originalBytes: 1, proposedBytes: 1 });
    const write = (k: string, path: string) => [
      { type: 'tool_start', ...ids, toolCallId: k, toolName: 'write_file', args: { path, content: 'b' } },
      { type: 'tool_end', ...ids, toolCallId: k, toolName: 'write_file', durationMs: 2, success: true, output: 'ok' },
    ];
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'edit' } });
    for (const e of write('k1', 'notes.txt')) await send({ type: 'event', event: e });
    await send({ type: 'event', event: { type: 'change_batch_updated', ...ids, batchId: 'b1', status: 'open', changes: [change('c1', 'notes.txt')], removed: [], fileCount: 1 } });
    for (const e of write('k2', 'a-file-with-a-rather-long-name-that-needs-room.txt')) await send({ type: 'event', event: e });
    await send({ type: 'event', event: { type: 'change_batch_updated', ...ids, batchId: 'b1', status: 'open', changes: [change('c2', 'a-file-with-a-rather-long-name-that-needs-room.txt')], removed: [], fileCount: 2 } });
    await page.waitForSelector(`${tid('batch-card')} ${tid('batch-waiting')}`);
    const kinds = await page.locator('.item').evaluateAll((els) => els.map((e) => e.className.replace('item item-', '')));
    assert.deepEqual(kinds, ['user', 'tool', 'tool', 'batch'], 'the batch card comes after the tool cards');
    assert.deepEqual(await page.locator(`${tid('tool-card')} .tool-name`).allTextContents(), ['Proposed notes.txt', 'Proposed a-file-with-a-rather-long-name-that-needs-room.txt']);
    assert.deepEqual(await page.locator(`${tid('tool-card')} .tool-status`).allTextContents(), ['◇', '◇'], 'no green check before the decision');
    assert.match(String(await page.getAttribute(tid('batch-accept-all'), 'title')), /when the agent finishes/);
    await shot('batch-open');
    await send({ type: 'batchResult', batchId: 'b1', results: [{ changeId: 'c1', path: 'notes.txt', status: 'rejected' }, { changeId: 'c2', path: 'a-file-with-a-rather-long-name-that-needs-room.txt', status: 'stale' }] });
    await page.waitForSelector(tid('batch-file-result'));
    assert.deepEqual(await page.locator(tid('batch-file-result')).allTextContents(), ['rejected', 'changed on disk']);
    assert.deepEqual(await page.locator(`${tid('tool-card')}`).evaluateAll((els) => els.map((e) => e.getAttribute('data-change'))), ['rejected', 'stale']);
    const name = await page.locator(tid('batch-review-file')).nth(1).evaluate((e) => e.clientWidth);
    assert.ok(name >= 100, `the file name keeps room before the result label (${name}px)`);
    await shot('batch-decided');
  });

  it('a long chat: shows the newest items, loads older pages as the user scrolls up and keeps the read item in place', async () => {
    const notice = (i: number) => ({ kind: 'notice', id: `n${i}`, text: `Notice number ${i}` });
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => notice(from + k));
    await send({ type: 'init', items: range(300, 360), olderCount: 300, state, runtime: { status: 'ready' } });
    await page.waitForSelector('text=Notice number 359');
    const transcript = page.locator(tid('transcript'));
    const scrollUp = async () => {
      await transcript.evaluate((el) => (el.scrollTop = 0));
      await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'loadOlder'));
    };
    await scrollUp();
    const asks = (await posted()).filter((m) => m.type === 'loadOlder');
    assert.deepEqual(asks.map((m) => m.beforeId), ['n300'], 'one request, for the page before the first item');
    const top = async () => transcript.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return (document.elementFromPoint(box.left + 20, box.top + 5)?.closest('[data-item-id]') as HTMLElement | null)?.dataset.itemId;
    });
    const before = await top();
    await send({ type: 'olderItems', beforeId: 'n300', items: range(100, 300), olderCount: 100 });
    await page.waitForTimeout(100);
    assert.equal(await top(), before, 'the item at the top stays there when older ones are put above it');
    await page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
    await scrollUp();
    assert.deepEqual((await posted()).filter((m) => m.type === 'loadOlder').map((m) => m.beforeId), ['n100']);
    await send({ type: 'olderItems', beforeId: 'n100', items: range(0, 100), olderCount: 0 });
    await transcript.evaluate((el) => (el.scrollTop = 0));
    await page.waitForSelector('text=Notice number 0');
    await page.evaluate(() => ((window as unknown as { __posted: unknown[] }).__posted.length = 0));
    await transcript.evaluate((el) => el.scrollBy(0, 10));
    await page.waitForTimeout(100);
    assert.equal((await posted()).filter((m) => m.type === 'loadOlder').length, 0, 'nothing older left to ask for');
  });

  it('streams an answer block by block and shows the final text rendered whole', async () => {
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'x' } });
    const answer = 'Intro **bold**.\n\n```ts\nconst a = 1;\n```\n\n- one\n- two\n\nDone.';
    for (let i = 0; i < answer.length; i += 5) {
      await send({ type: 'event', event: { type: 'message_update', ...ids, messageId: 'm1', delta: answer.slice(i, i + 5) } });
    }
    await page.waitForSelector(`${tid('assistant-message')} li:has-text("two")`);
    const streamed = await page.locator(`${tid('assistant-message')} .markdown`).innerHTML();
    await send({ type: 'event', event: { type: 'message_end', ...ids, messageId: 'm1', content: answer } });
    await page.waitForSelector(`${tid('assistant-message')}[aria-busy="false"]`);
    assert.equal(await page.locator(`${tid('assistant-message')} .markdown`).innerHTML(), streamed, 'the streamed blocks match the whole render');
    assert.equal(await page.locator(`${tid('assistant-message')} .hljs-keyword`).count(), 1);
  });

  it('reports an invalid message instead of failing', async () => {
    await send({ type: 'state', state: { provider: 'x' } });
    await send({ type: 'nonsense' });
    const errs = (await posted()).filter((m) => m.type === 'webviewError');
    assert.equal(errs.length, 2);
    assert.match(String(errs[0]?.message), /invalid "state" message to the webview: state\.model/);
  });
});
