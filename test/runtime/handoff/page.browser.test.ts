/**
 * The handoff page in Chromium against a real runtime: opening the url attaches, shows the transcript, streams a
 * prompt's answer, and answers a permission request; model output is text, never markup; a used link is refused.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { requirePrerequisite } from '../../helpers/prerequisite';
import { makeWorkspace, useStubbedRuntime, type RuntimeUnderTest } from '../../helpers/runtime-process';

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Set to a folder to keep screenshots of the page there (to look at it). */
const SHOTS = process.env.UI_SHOTS;

/** Waits for the runtime's `n`th run to be over (its agent_end sent and the session idle again). */
async function idle(rt: RuntimeUnderTest, n: number): Promise<void> {
  await rt.waitForEvent('agent_end', () => rt.events.filter((x) => x.type === 'agent_end').length === n);
  while ((await rt.request('getState', {})).status !== 'idle') await new Promise((r) => setTimeout(r, 20));
}

describe('browser handoff page in Chromium', function () {
  this.timeout(60_000);
  const t = useStubbedRuntime();
  let browser: Browser;

  before(async function () {
    requirePrerequisite(this, existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless=new'] });
  });

  after(async () => {
    await browser?.close();
  });

  it('attaches, shows the transcript, streams an answer to a typed prompt and answers a permission request', async () => {
    const cwd = makeWorkspace({}, t.stub.origin, { permissions: { ask: ['Bash(echo from-browser)'] } });
    const markup = '<img src=x onerror="document.title=\'pwned\'"><b>bold?</b>';
    t.stub.enqueue({ text: `terminal answer ${markup}` });
    const rt = await t.start(cwd);
    await rt.request('prompt', { message: 'hello from the terminal' });
    await rt.waitForEvent('agent_end');
    const h = await rt.request('createBrowserHandoff', {});

    const context = await browser.newContext();
    const page = await context.newPage();
    const cspErrors: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.goto(h.url);
    await page.waitForSelector('body[data-attached="true"]');
    assert.equal(new URL(page.url()).hash, '', 'the token is taken out of the address bar');
    const transcript = page.locator('#transcript');
    await transcript.getByText('hello from the terminal').waitFor();
    // Model output is shown as text: the markup is visible, nothing of it runs or renders.
    await transcript.getByText(`terminal answer ${markup}`).waitFor();
    assert.equal(await page.locator('#transcript img').count(), 0);
    assert.notEqual(await page.title(), 'pwned');

    // A prompt typed in the page runs in the runtime and streams back.
    t.stub.enqueue({ text: 'streamed from the stub model', chunkDelayMs: 5 });
    await page.fill('#prompt', 'hello from the browser');
    await page.click('#send');
    await transcript.getByText('streamed from the stub model').waitFor();
    await idle(rt, 2);

    // A permission request shows as a card and is answered from the page.
    t.stub.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo from-browser' } }] }, { text: 'ran it' });
    await page.fill('#prompt', 'run the command');
    await page.click('#send');
    const card = page.locator('#pending .card');
    await card.getByText('echo from-browser').waitFor();
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'handoff-permission.png'), fullPage: true });
    await card.getByRole('button', { name: 'Allow' }).click();
    const resolved = await rt.waitForEvent('permission_resolved');
    assert.equal(resolved.outcome, 'allowed');
    const ended = await rt.waitForEvent('tool_end', (e) => e.toolName === 'run_command');
    assert.equal(ended.success, true);
    assert.match(ended.output ?? '', /from-browser/);
    await transcript.getByText('ran it').waitFor();
    assert.equal(await card.count(), 0);
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'handoff-page.png'), fullPage: true });
    await idle(rt, 3);

    // A change batch shows as a card and is decided from the page.
    t.stub.enqueue({ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'from the browser\n' } }] }, { text: 'wrote it' });
    await page.fill('#prompt', 'write the notes');
    await page.click('#send');
    const batch = page.locator('#pending .card');
    await batch.getByText('notes.txt').waitFor();
    await batch.getByRole('button', { name: 'Accept all' }).click();
    await rt.waitForEvent('change_batch_decided');
    assert.equal(readFileSync(path.join(cwd, 'notes.txt'), 'utf8'), 'from the browser\n');
    await batch.waitFor({ state: 'detached' });
    assert.deepEqual(cspErrors, []);

    // The same link in another browser context is refused with the reason.
    const second = await (await browser.newContext()).newPage();
    await second.goto(h.url);
    await second.waitForSelector('body[data-attached="false"]');
    assert.match((await second.locator('#error').textContent()) ?? '', /already used/);
    if (SHOTS) await second.screenshot({ path: path.join(SHOTS, 'handoff-refused.png') });
    assert.equal(await second.locator('#prompt').isVisible(), false, 'no prompt box without a session');
    await context.close();
  });
});
