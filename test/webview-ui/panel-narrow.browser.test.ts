/**
 * The chat panel at VS Code's default side bar width (300 px) in a real browser: file names that stay readable, code
 * that wraps, `@` file suggestions with chips, and request cards answered from the keyboard.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ids, state, tid, usePanelPage } from './panel-page';

const LONG_PATH = 'docs/releases/2026-november/CHANGELOG-for-the-november-release.md';

describe('chat panel in a narrow side bar', function () {
  this.timeout(60_000);
  const panel = usePanelPage();
  const { send, posted, shot } = panel;
  let page: Page;
  beforeEach(async () => {
    page = panel.page;
    await page.setViewportSize({ width: 300, height: 640 });
  });

  /** Whether every element matching `selector` shows all of its content (nothing cut, no sideways scrolling). */
  const fitsAll = (selector: string) => page.$$eval(selector, (els) => els.every((e) => e.scrollWidth <= e.clientWidth + 1));

  it('keeps a long file name whole in the batch and tool cards, the folder dimmed, the full path in the tooltip', async () => {
    const change = { id: 'c1', path: LONG_PATH, absolutePath: `/w/${LONG_PATH}`, kind: 'create', additions: 12, deletions: 0, revision: 1, originalBytes: null, proposedBytes: 1 };
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'x' } });
    await send({ type: 'event', event: { type: 'tool_start', ...ids, toolCallId: 'k1', toolName: 'write_file', args: { path: LONG_PATH, content: 'x' } } });
    await send({ type: 'event', event: { type: 'tool_end', ...ids, toolCallId: 'k1', toolName: 'write_file', durationMs: 3, success: true, output: 'ok' } });
    await send({ type: 'event', event: { type: 'change_batch_ready', sessionId: 's1', runId: 'r1', batch: { id: 'b1', runId: 'r1', status: 'pending', changes: [change] } } });
    await send({ type: 'event', event: { type: 'agent_end', ...ids, status: 'completed', text: '' } });
    await page.waitForSelector(tid('batch-card'));
    await shot('narrow-batch-long-name');
    const names = await page.locator('.path-name').allTextContents();
    assert.deepEqual(names, ['CHANGELOG-for-the-november-release.md', 'CHANGELOG-for-the-november-release.md'], 'tool card and batch card name the file');
    assert.ok(await fitsAll('.path-name'), 'a file name is cut');
    assert.equal(await page.getAttribute(tid('batch-review-file'), 'title'), `Review ${LONG_PATH}`);
    const folder = await page.locator(`${tid('batch-file')} .path-folder`).evaluate((e) => ({ text: e.textContent?.replace(/\u200e/g, ''), color: getComputedStyle(e).color }));
    assert.equal(folder.text, 'docs/releases/2026-november');
    assert.notEqual(folder.color, await page.locator(`${tid('batch-file')} .path-name`).evaluate((e) => getComputedStyle(e).color), 'the folder is not dimmed');
    assert.equal(await page.locator(`${tid('tool-card')} .tool-verb`).textContent(), 'Proposed ');
  });

  it('wraps long code lines, inline code, URLs and tables instead of widening the panel; Copy stays reachable', async () => {
    const text = `Run:\n\n\`\`\`sh\nnpx agentcli --model ggufserver/stub-model --append-system-prompt ${'a'.repeat(120)}\n\`\`\`\n\nSee \`${'b'.repeat(90)}\` and https://example.invalid/${'c'.repeat(90)}\n\n| column one | column two | column three | column four | column five |\n|---|---|---|---|---|\n| ${'d'.repeat(30)} | e | f | g | h |`;
    await send({ type: 'init', items: [{ kind: 'assistant', id: 'a1', messageId: 'm1', runId: 'r1', text, streaming: false }], state, runtime: { status: 'ready' } });
    await page.waitForSelector('.code-block pre');
    await shot('narrow-code-block');
    assert.ok(await fitsAll('.code-block pre'), 'the code block scrolls sideways');
    assert.ok(await fitsAll(tid('transcript')), 'the transcript is wider than the panel');
    assert.ok(await fitsAll('.markdown'), 'the answer is wider than the panel');
    const table = await page.locator('.markdown table').evaluate((e) => e.getBoundingClientRect().right);
    assert.ok(table <= 300, `a wide table reaches ${table}px: it widens the panel`);
    await page.focus(tid('code-copy'));
    assert.equal(await page.locator(tid('code-copy')).evaluate((e) => getComputedStyle(e).opacity), '1', 'the copy button shows when it has the keyboard focus');
  });

  it('@ asks for files as it is typed, lists them, Enter inserts the path and a chip; × removes the mention', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    const box = page.locator(tid('prompt-input'));
    await box.click();
    // three keys in one burst: "@", "s", "r"
    await page.$eval(tid('prompt-input'), (el) => {
      const area = el as HTMLTextAreaElement;
      for (const text of ['explain @', 'explain @s', 'explain @sr']) {
        area.value = text;
        area.setSelectionRange(text.length, text.length);
        area.dispatchEvent(new Event('input', { bubbles: true }));
      }
    });
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'findFiles'));
    const asks = (await posted()).filter((m) => m.type === 'findFiles');
    assert.equal(asks.length, 1, 'one question for a burst of keys (debounced)');
    assert.equal(asks[0]?.query, 'sr');
    // an answer to an older question is ignored; the latest one is shown
    await send({ type: 'fileMatches', requestId: Number(asks[0]?.requestId) - 1, paths: ['stale.ts'] });
    await send({ type: 'fileMatches', requestId: asks[0]?.requestId, paths: ['src/app.ts', 'src/shared/chat/messages.ts', 'say "hi".ts', 'has space.ts'] });
    await page.waitForSelector(tid('mention-option'));
    assert.deepEqual(await page.locator(tid('mention-option')).evaluateAll((els) => els.map((e) => e.getAttribute('data-path'))), ['src/app.ts', 'src/shared/chat/messages.ts', 'has space.ts'], 'a path a mention cannot hold (a double quote) is left out');
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    assert.equal(await box.getAttribute('aria-activedescendant'), 'mention-suggestions-1');
    await shot('narrow-mention-list');
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), 'explain @src/shared/chat/messages.ts ');
    assert.equal(await page.isVisible(tid('mention-list')), false, 'the list closes after a choice');
    assert.ok(!(await posted()).some((m) => m.type === 'sendPrompt'), 'Enter chose the file; it did not send');
    await page.keyboard.type('please');
    await page.waitForSelector(tid('mention-chip'));
    assert.equal(await page.getAttribute(tid('mention-chip'), 'data-path'), 'src/shared/chat/messages.ts');
    await shot('narrow-mention-chip');
    await page.click(tid('mention-chip-remove'));
    assert.equal(await box.inputValue(), 'explain please');
    assert.equal(await page.locator(tid('mention-chip')).count(), 0);
  });

  it('@ list: Escape closes it, a click chooses, and the sent prompt shows what was attached', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    const box = page.locator(tid('prompt-input'));
    await box.click();
    await page.keyboard.type('@');
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string }> }).__posted.some((m) => m.type === 'findFiles'));
    const ask = (await posted()).find((m) => m.type === 'findFiles');
    await send({ type: 'fileMatches', requestId: ask?.requestId, paths: ['README.md', 'src/app.ts'] });
    await page.waitForSelector(tid('mention-option'));
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible(tid('mention-list')), false, 'Escape closes the list');
    await page.keyboard.type('s');
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string; query?: string }> }).__posted.some((m) => m.type === 'findFiles' && m.query === 's'));
    const again = (await posted()).filter((m) => m.type === 'findFiles').pop();
    await send({ type: 'fileMatches', requestId: again?.requestId, paths: ['src/app.ts'] });
    await page.click(`${tid('mention-option')} >> nth=0`);
    assert.equal(await box.inputValue(), '@src/app.ts ');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'prompt-input', 'a click keeps the focus in the prompt box');
    await page.keyboard.type('what is this');
    await page.keyboard.press('Enter');
    const sent = (await posted()).find((m) => m.type === 'sendPrompt');
    assert.deepEqual(sent?.mentions, ['src/app.ts']);
    await page.waitForSelector(`${tid('sent-chips')} .chip`);
    assert.match(String(await page.textContent(tid('sent-chips'))), /app\.ts/);
  });

  it('@ list: a path with spaces is typed and inserted quoted, and attached whole', async () => {
    await send({ type: 'init', items: [], state, runtime: { status: 'ready' } });
    const box = page.locator(tid('prompt-input'));
    await box.click();
    await page.keyboard.type('sum up @"my no');
    await page.waitForFunction(() => (window as unknown as { __posted: Array<{ type: string; query?: string }> }).__posted.some((m) => m.type === 'findFiles' && m.query === 'my no'));
    const ask = (await posted()).filter((m) => m.type === 'findFiles').pop();
    await send({ type: 'fileMatches', requestId: ask?.requestId, paths: ['My Notes/to do.md'] });
    await page.waitForSelector(tid('mention-option'));
    await page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), 'sum up @"My Notes/to do.md" ');
    await page.keyboard.type('briefly');
    await page.waitForSelector(tid('mention-chip'));
    assert.equal(await page.getAttribute(tid('mention-chip'), 'data-path'), 'My Notes/to do.md');
    await page.keyboard.press('Enter');
    const sent = (await posted()).find((m) => m.type === 'sendPrompt');
    assert.deepEqual(sent?.mentions, ['My Notes/to do.md']);
    await page.waitForSelector(`${tid('sent-chips')} .chip`);
    assert.match(String(await page.textContent(tid('sent-chips'))), /to do\.md/);
  });

  it('a permission card takes the focus when the prompt box is empty, shows its keys, and answers from the keyboard', async () => {
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await page.focus(tid('prompt-input'));
    // a key typed right as the card takes the focus was meant for the prompt box: ignored
    // (a string: the test transpiler would wrap a named function with a helper the page does not have)
    const early = page.evaluate(`new Promise((resolve) => {
      const poll = () => {
        const el = document.activeElement;
        if (el?.getAttribute('data-testid') !== 'permission-once') return requestAnimationFrame(poll);
        el.dispatchEvent(new KeyboardEvent('keydown', { key: '3', bubbles: true, cancelable: true }));
        resolve(el.getAttribute('data-testid'));
      };
      poll();
    })`);
    await send({ type: 'event', event: { type: 'permission_request', ...ids, requestId: 'q1', toolCallId: 'k1', tool: 'run_command', description: 'Run: npm test', command: 'npm test', suggestedRules: [], choices: ['once', 'session', 'always', 'deny', 'alternative'] } });
    assert.equal(await early, 'permission-once', 'the card did not take the focus');
    assert.deepEqual(await page.locator(`${tid('permission-card')} [data-key]`).evaluateAll((els) => els.map((e) => `${e.getAttribute('data-key')} ${e.textContent}`)),
      ['1 Allow once', '2 Deny', '3 Allow for this session', '4 Always allow', '5 Suggest alternative…']);
    assert.equal(await page.isVisible(tid('key-hint')), true, 'the hint shows while the card has the focus');
    assert.ok(!(await posted()).some((m) => m.type === 'permissionDecision'), 'a key in the first moment answered the card');
    await page.waitForTimeout(450);
    await shot('narrow-permission-keys');
    await page.keyboard.press('Escape');
    assert.ok((await posted()).some((m) => m.type === 'permissionDecision' && m.choice === 'deny'), 'Escape denies');
    await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'prompt-input');
  });

  it('never takes the focus from a prompt being typed, and typing there never answers a card', async () => {
    await send({ type: 'init', items: [], state: { ...state, running: true }, runtime: { status: 'ready' } });
    await page.click(tid('prompt-input'));
    await page.keyboard.type('next I want');
    await send({ type: 'event', event: { type: 'directory_access_request', ...ids, requestId: 'd1', toolCallId: 'k1', path: '/outside', reason: 'Read /outside/a needs read access outside the workspace' } });
    await page.waitForSelector(tid('directory-card'));
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'prompt-input');
    await page.keyboard.type(' 1 2 3');
    assert.equal(await page.inputValue(tid('prompt-input')), 'next I want 1 2 3');
    assert.ok(!(await posted()).some((m) => m.type === 'directoryDecision'), 'typing in the prompt box answered the card');
    // Tab reaches the card's buttons; 3 then answers "for this session"
    await page.focus(tid('directory-once'));
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'directory-deny');
    await page.keyboard.press('3');
    assert.ok((await posted()).some((m) => m.type === 'directoryDecision' && m.allowed === true && m.scope === 'session'));
  });

  it('plan and batch cards: 1 accepts the plan; the batch card shows Ctrl+Alt+Y / N and its buttons are reachable by Tab', async () => {
    await send({ type: 'init', items: [], state: { ...state, planMode: true }, runtime: { status: 'ready' } });
    await send({ type: 'event', event: { type: 'plan_proposed', ...ids, planId: 'p1', steps: [{ title: 'Do it', status: 'pending' }], text: '1. Do it' } });
    await page.waitForSelector(`${tid('plan-accept')}:focus`);
    await page.waitForTimeout(450);
    await page.keyboard.press('1');
    assert.ok((await posted()).some((m) => m.type === 'planDecision' && m.decision === 'accept'));
    const change = { id: 'c1', path: 'a.ts', absolutePath: '/w/a.ts', kind: 'modify', additions: 1, deletions: 1, revision: 1, originalBytes: 1, proposedBytes: 1 };
    await send({ type: 'event', event: { type: 'change_batch_ready', sessionId: 's1', runId: 'r2', batch: { id: 'b1', runId: 'r2', status: 'pending', changes: [change] } } });
    await page.waitForSelector(`${tid('batch-card')} ${tid('key-hint')}`);
    assert.equal(await page.textContent(`${tid('batch-card')} ${tid('key-hint')}`), 'Ctrl+Alt+Y accepts all · Ctrl+Alt+N rejects all');
    await page.focus(tid('batch-review'));
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      order.push(String(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))));
    }
    assert.deepEqual(order, ['batch-accept-all', 'batch-reject-all', 'batch-accept-selected']);
    const ring = await page.locator(tid('batch-accept-selected')).evaluate((e) => getComputedStyle(e).outlineStyle);
    assert.equal(ring, 'solid', 'the focused button shows a focus ring');
    await shot('narrow-batch-keys');
  });
});
