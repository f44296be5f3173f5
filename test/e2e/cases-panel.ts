/**
 * E2E cases: the chat panel in VS Code's default (narrow) side bar: the view title, the palette hiding commands that
 * cannot apply, a permission card answered from the keyboard, a long file name in a batch card, a wide code block,
 * Accept selected pre-ticked, Ctrl+Alt+N from the panel, and `@` file suggestions with a chip.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { waitAllowing } from './cases-batch';
import {
  chatRequests,
  chatView,
  expect,
  openFile,
  panelShot,
  readWorkspaceFile,
  requestText,
  runCommand,
  sendPrompt,
  shot,
  waitForChatRequests,
  type E2ECase,
  type E2EContext,
} from './harness';

const LONG_PATH = 'docs/releases/2026-november/CHANGELOG-for-the-november-release.md';
const WIDE_LINE = `npx agentcli --model ggufserver/stub-model --append-system-prompt docs/a-rather-long-system-prompt-file.md -p "${'x'.repeat(80)}"`;

async function openPanel(ctx: E2EContext): Promise<FrameLocator> {
  await runCommand(ctx.page, 'agentcli: Open Chat');
  const view = chatView(ctx.page);
  await view.getByTestId('prompt-input').waitFor({ timeout: 60000 }); // the first start loads the runtime
  return view;
}

/** The rows the command palette lists for `query` (their labels). */
async function paletteRows(page: Page, query: string): Promise<string[]> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10000 });
  await input.fill(`>${query}`);
  await page.waitForTimeout(800); // the list filters as it is typed
  return page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents();
}

/** Whether an element in the chat view shows all of its content (nothing cut, no sideways scrolling). */
async function fits(view: FrameLocator, selector: string): Promise<boolean> {
  return view.locator(selector).first().evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
}

export const panelCases: E2ECase[] = [
  {
    name: 'panel: the view title reads well; the palette hides Stop and Turn Off Yolo Mode when idle and off',
    run: async (ctx) => {
      await openPanel(ctx);
      const title = (await ctx.page.locator('.part.sidebar .composite.title h2').first().textContent())?.trim() ?? '';
      ctx.log(`side bar title: "${title}"`);
      expect(!/agentcli: chat/i.test(title), `the side bar title reads "${title}"`);
      await panelShot(ctx, '60-panel-title');
      const stop = await paletteRows(ctx.page, 'agentcli: Stop');
      expect(!stop.some((r) => /^agentcli: Stop$/.test(r.trim())), `Stop is listed while idle: ${stop.join(' | ')}`);
      const yolo = await paletteRows(ctx.page, 'agentcli: Yolo');
      await shot(ctx, '61-palette-yolo-off');
      expect(yolo.some((r) => r.includes('Turn On Yolo Mode')), `Turn On Yolo Mode is not listed: ${yolo.join(' | ')}`);
      expect(!yolo.some((r) => r.includes('Turn Off Yolo Mode')), `Turn Off Yolo Mode is listed while yolo is off: ${yolo.join(' | ')}`);
      const changes = await paletteRows(ctx.page, 'agentcli: Accept All Changes');
      expect(!changes.some((r) => r.includes('Accept All Changes')), 'Accept All Changes is listed with no batch');
      await ctx.page.keyboard.press('Escape');
    },
  },
  {
    name: 'panel: a permission card takes the focus and is answered from the keyboard; it leaves the editor focus alone',
    run: async (ctx) => {
      const view = await openPanel(ctx);
      ctx.script.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo keyboard > keyboard.txt' } }] }, { text: 'Approved from the keyboard.' });
      await sendPrompt(ctx.page, 'Write keyboard.txt with a shell command.');
      const card = view.getByTestId('permission-card').last();
      await card.waitFor({ timeout: 30000 });
      await view.locator('[data-testid="permission-once"]:focus').waitFor({ timeout: 10000 });
      await ctx.page.waitForTimeout(600); // keys pressed right as the card appears are ignored
      await panelShot(ctx, '62-permission-keyboard');
      expect((await card.getByTestId('key-hint').textContent())?.includes('Esc denies') === true, 'the card does not show its keys');
      await ctx.page.keyboard.press('1');
      await view.getByText('Approved from the keyboard.').first().waitFor({ timeout: 30000 });
      expect(readWorkspaceFile(ctx, 'keyboard.txt')?.includes('keyboard') === true, 'keyboard.txt was not written: 1 did not allow the command');
      await view.locator('[data-testid="prompt-input"]:focus').waitFor({ timeout: 5000 });

      // the editor has the focus when the next card arrives: it stays there
      ctx.script.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo later > later.txt' } }], chunkDelayMs: 800 }, { text: 'Denied, fine.' });
      await sendPrompt(ctx.page, 'Write later.txt with a shell command.');
      await openFile(ctx.page, 'src/greet.ts'); // Quick Open leaves the focus in the editor
      ctx.log('editor opened; waiting for the card');
      await view.getByText('echo later > later.txt').first().waitFor({ timeout: 60000 });
      await ctx.page.waitForTimeout(800);
      ctx.log('card shown');
      expect((await ctx.page.locator('.monaco-editor.focused').count()) > 0, 'the permission card took the focus from the editor');
      await shot(ctx, '63-permission-editor-keeps-focus');
      // Escape denies (the safe answer) once the user moves into the card
      await view.getByTestId('permission-once').last().focus();
      ctx.log('Allow once focused');
      await ctx.page.keyboard.press('Escape');
      await view.getByText('Denied, fine.').first().waitFor({ timeout: 30000 });
      expect(readWorkspaceFile(ctx, 'later.txt') === undefined, 'later.txt was written although denied');
    },
  },
  {
    name: 'panel: a long file name and a wide code block fit the side bar; Accept selected starts all ticked; Ctrl+Alt+N rejects',
    run: async (ctx) => {
      const view = await openPanel(ctx);
      ctx.script.push(
        { toolCalls: [{ name: 'write_file', arguments: { path: LONG_PATH, content: '# Changes\n' } }] },
        { text: `Proposed the changelog. Run it with:\n\n\`\`\`sh\n${WIDE_LINE}\n\`\`\`\n\nSee https://example.invalid/a/very/long/address/that/should/wrap/in/the/panel/${'y'.repeat(60)}` },
      );
      await sendPrompt(ctx.page, 'Propose a changelog for the release.');
      await waitAllowing(ctx, 'Proposed the changelog.');
      const card = view.getByTestId('batch-card').last();
      await card.waitFor({ timeout: 30000 });
      await view.locator('.code-block pre').last().scrollIntoViewIfNeeded();
      await panelShot(ctx, '64-narrow-code-block');
      await card.scrollIntoViewIfNeeded();
      await panelShot(ctx, '65-batch-long-file-name');
      const name = await card.locator('.path-name').first().evaluate((el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth + 1 }));
      expect(name.text === 'CHANGELOG-for-the-november-release.md' && !name.cut, `the file name is cut in the batch card: ${JSON.stringify(name)}`);
      expect(await fits(view, '.code-block pre'), 'the code block scrolls sideways');
      expect(await fits(view, '[data-testid="transcript"]'), 'the transcript is wider than the panel');
      await card.getByTestId('batch-accept-selected').click();
      await ctx.page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]').first().waitFor({ timeout: 10000 });
      await shot(ctx, '66-accept-selected-preticked');
      await ctx.page.keyboard.press('Escape');
      await card.getByTestId('batch-review').focus();
      await panelShot(ctx, '67-batch-keys');
      await ctx.page.keyboard.press('Control+Alt+N');
      await card.getByTestId('batch-file-result').first().waitFor({ timeout: 20000 });
      expect((await card.getByTestId('batch-file-result').first().textContent()) === 'rejected', 'Ctrl+Alt+N in the panel did not reject the batch');
      expect(readWorkspaceFile(ctx, LONG_PATH) === undefined, 'the rejected file was written');
    },
  },
  {
    name: 'panel: @ suggests workspace files; Enter inserts the path, a chip shows it, the sent prompt carries the file',
    run: async (ctx) => {
      // a path with spaces, mentioned quoted at the end (written first: the suggestions reuse a listing for 10 s)
      const spaced = path.join(ctx.workspace, 'my notes', 'to do.md');
      fs.mkdirSync(path.dirname(spaced), { recursive: true });
      fs.writeFileSync(spaced, 'Remember the milk.\n');
      const view = await openPanel(ctx);
      const box = view.getByTestId('prompt-input');
      await box.fill('');
      await box.click();
      await box.pressSequentially('Explain @gre', { delay: 40 });
      const option = view.getByTestId('mention-option').first();
      await option.waitFor({ timeout: 15000 });
      expect((await option.getAttribute('data-path')) === 'src/greet.ts', `the first suggestion is ${await option.getAttribute('data-path')}`);
      await panelShot(ctx, '68-mention-suggestions');
      await ctx.page.keyboard.press('Enter');
      expect((await box.inputValue()) === 'Explain @src/greet.ts ', `the box reads "${await box.inputValue()}"`);
      await view.getByTestId('mention-chip').first().waitFor({ timeout: 5000 });
      await box.pressSequentially('please', { delay: 20 });
      await panelShot(ctx, '69-mention-chip');
      const before = chatRequests(ctx.stub).length;
      ctx.script.push({ text: 'Greet explained.' });
      await ctx.page.keyboard.press('Enter');
      await view.getByText('Greet explained.').first().waitFor({ timeout: 30000 });
      const sent = view.getByTestId('user-message').last();
      expect((await sent.getByTestId('sent-chips').textContent())?.includes('greet.ts') === true, 'the sent prompt shows no chip for the attached file');
      const reqs = await waitForChatRequests(ctx, before + 1);
      expect(requestText(reqs[before]!).includes('Hello, ${name}!'), 'the mentioned file did not reach the model');
      await panelShot(ctx, '70-mention-sent');

      // a mention outside the workspace is not attached: the error line says so and its chip is struck through
      fs.writeFileSync(path.join(path.dirname(ctx.workspace), 'outside.txt'), 'not for the agent\n');
      ctx.script.push({ text: 'Answered without the outside file.' });
      await box.fill('Compare @src/greet.ts with @../outside.txt');
      await ctx.page.waitForTimeout(800); // the suggestions (debounced) may open: close them so Enter sends
      await box.press('Escape');
      expect((await box.inputValue()) === 'Compare @src/greet.ts with @../outside.txt', `the box reads "${await box.inputValue()}"`);
      await box.press('Enter');
      await view.getByText('Answered without the outside file.').first().waitFor({ timeout: 30000 });
      await view.getByText('@../outside.txt: it is outside the workspace').first().waitFor({ timeout: 10000 });
      const last = view.getByTestId('user-message').last();
      await last.getByTestId('refused-mention').first().waitFor({ timeout: 10000 });
      expect((await last.getByTestId('refused-mention').count()) === 1, 'more than the outside mention is shown as not attached');
      expect((await last.getByTestId('refused-mention').getAttribute('title')) === '@../outside.txt was not attached', 'the refused chip does not say so');
      await panelShot(ctx, '71-mention-refused');

      await box.fill('');
      await box.pressSequentially('Read @"to d', { delay: 40 });
      const spacedOption = view.getByTestId('mention-option').first();
      await spacedOption.waitFor({ timeout: 15000 });
      expect((await spacedOption.getAttribute('data-path')) === 'my notes/to do.md', `the first suggestion is ${await spacedOption.getAttribute('data-path')}`);
      await ctx.page.keyboard.press('Enter');
      expect((await box.inputValue()) === 'Read @"my notes/to do.md" ', `the box reads "${await box.inputValue()}"`);
      const beforeSpaced = chatRequests(ctx.stub).length;
      ctx.script.push({ text: 'Milk noted.' });
      await ctx.page.keyboard.press('Enter');
      await view.getByText('Milk noted.').first().waitFor({ timeout: 30000 });
      const spacedReqs = await waitForChatRequests(ctx, beforeSpaced + 1);
      expect(requestText(spacedReqs[beforeSpaced]!).includes('Remember the milk.'), 'the file with spaces in its path did not reach the model');
      expect((await view.getByTestId('user-message').last().getByTestId('refused-mention').count()) === 0, 'the quoted mention was refused');
      await panelShot(ctx, '71b-mention-spaces');
      fs.rmSync(path.dirname(spaced), { recursive: true, force: true });
    },
  },
];
