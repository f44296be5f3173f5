// The prompt box the panel's HTML carries (src/extension/chat/webview-html.ts): on screen and taking typing before the
// panel's code runs, then adopted by the composer with what was typed, its focus and caret, and an Enter pressed
// meanwhile sends that prompt once. The page is the extension's own HTML, its bundle held back until the test lets it run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { webviewHtml } from '../../src/extension/chat/webview-html';
import { ids, tid, usePanelPage } from './panel-page';

describe('webview panel: the prompt box carried by the page', function () {
  this.timeout(60_000);
  const panel = usePanelPage({
    // Held back: the bundle runs when the test resolves window.__gate, so the test can type while it "loads".
    html: (bundle) =>
      webviewHtml({ cspSource: 'file:', script: `(async () => { await window.__gate; ${bundle}\n})();`, styles: [readFileSync('media/webview/chat.css', 'utf8')], nonce: 'N0nce' }),
    initScript: 'window.__gate = new Promise((resolve) => { window.__open = resolve; });',
    loaded: (page) => page.waitForFunction(() => performance.getEntriesByName('agentcli:input-ready').length === 1),
  });
  const posted = () => panel.posted();
  const startPanel = async () => {
    await panel.page.evaluate(() => (window as unknown as { __open: () => void }).__open());
    await panel.page.waitForFunction(() => performance.getEntriesByName('agentcli:panel-started').length === 1);
  };

  it('is on screen and takes typing before the panel runs; the panel keeps the text, the focus and the caret', async () => {
    const page = panel.page;
    const box = page.locator(tid('prompt-input'));
    assert.ok(await box.isVisible(), 'the box is drawn before the bundle runs');
    assert.equal(await page.locator(tid('composer')).count(), 0, 'the panel has not started');
    await box.click();
    await page.keyboard.type('explain the build');
    await page.keyboard.press('ArrowLeft');
    await startPanel();
    assert.equal(await page.locator(tid('prompt-input')).count(), 1, 'one box: the composer adopted the carried one');
    assert.equal(await page.locator(`${tid('composer')} ${tid('prompt-input')}`).inputValue(), 'explain the build');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'prompt-input');
    assert.deepEqual(await page.evaluate(() => { const t = document.activeElement as HTMLTextAreaElement; return [t.selectionStart, t.selectionEnd]; }), [16, 16]);
    assert.equal(await box.getAttribute('data-early'), null, 'the first script holds back no more Enters');
    assert.equal((await posted()).filter((m) => m.type === 'sendPrompt').length, 0, 'nothing was sent');
    await page.keyboard.press('Enter');
    const sent = (await posted()).filter((m) => m.type === 'sendPrompt');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.text, 'explain the build');
  });

  it('an Enter pressed before the panel runs sends that prompt once it starts, after ready, and only once', async () => {
    const page = panel.page;
    const box = page.locator(tid('prompt-input'));
    await box.fill('fix the failing test');
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'fix the failing test', 'held back: no new line, nothing sent yet');
    assert.equal(await box.getAttribute('data-early'), 'send');
    assert.deepEqual(await posted(), []);
    await startPanel();
    const types = (await posted()).map((m) => m.type);
    assert.deepEqual(types.slice(0, 2), ['ready', 'sendPrompt']);
    assert.equal(types.filter((t) => t === 'sendPrompt').length, 1);
    assert.equal((await posted()).find((m) => m.type === 'sendPrompt')!.text, 'fix the failing test');
    assert.equal(await box.inputValue(), '', 'the box is cleared as after any send');
    await page.locator(tid('user-message')).first().waitFor();
  });

  it('the carried Send button, clicked before the panel runs, sends once it starts; the box keeps its width', async () => {
    const page = panel.page;
    const box = page.locator(tid('prompt-input'));
    const before = await box.boundingBox();
    await box.fill('summarise the changes');
    await page.locator(tid('send')).click();
    assert.deepEqual(await posted(), []);
    await startPanel();
    assert.equal(await page.locator(tid('send')).count(), 1, 'one Send: the composer\'s');
    const sent = (await posted()).filter((m) => m.type === 'sendPrompt');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.text, 'summarise the changes');
    // The send shows Stop at once (narrower than Send); the run ends, Send comes back, and the box is where it was.
    await page.locator(`${tid('stop')}:visible`).waitFor();
    await panel.send({ type: 'event', event: { type: 'agent_start', ...ids, prompt: 'summarise the changes' } });
    await panel.send({ type: 'event', event: { type: 'agent_end', ...ids, status: 'completed', text: '' } });
    await page.locator(`${tid('send')}:visible`).waitFor();
    const after = await box.boundingBox();
    assert.ok(before && after && Math.abs(before.width - after.width) < 1 && Math.abs(before.x - after.x) < 1, `the box moved: ${JSON.stringify([before, after])}`);
  });

  it('Shift+Enter before the panel runs is a new line, not a send', async () => {
    const page = panel.page;
    const box = page.locator(tid('prompt-input'));
    await box.fill('first line');
    await box.press('Shift+Enter');
    await startPanel();
    assert.equal(await box.inputValue(), 'first line\n');
    assert.equal((await posted()).filter((m) => m.type === 'sendPrompt').length, 0);
  });
});
