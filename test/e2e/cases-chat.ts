/**
 * E2E cases: the panel, streaming, permission and directory-access prompts.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  chatView,
  expect,
  readWorkspaceFile,
  requestText,
  runCommand,
  sendPrompt,
  shot,
  statusBar,
  waitForChatRequests,
  chatRequests,
  type E2ECase,
  type E2EContext,
} from './harness';

const STREAMED =
  'Streaming works: this answer arrives in many small pieces from the stub model, and the panel renders the markdown as it comes in. ' +
  'Here is a list:\n\n- first point\n- second point\n\n```ts\nconst answer = 42;\n```\n\nEnd of the streamed answer.';

/** Clicks the first visible button in the chat view whose name matches. */
export async function clickChatButton(ctx: E2EContext, name: RegExp): Promise<void> {
  const button = chatView(ctx.page).getByRole('button', { name }).last();
  await button.waitFor({ timeout: 30000 });
  await button.click();
}

export const chatCases: E2ECase[] = [
  {
    name: 'the chat panel opens from the command palette',
    run: async (ctx) => {
      await runCommand(ctx.page, 'agentcli: Open Chat');
      await chatView(ctx.page).locator('textarea').first().waitFor({ timeout: 30000 });
      await statusBar(ctx.page, 'ggufserver/').waitFor({ timeout: 30000 });
      await shot(ctx, '01-panel-open');
    },
  },
  {
    name: 'a prompt streams an answer',
    run: async (ctx) => {
      const before = chatRequests(ctx.stub).length;
      ctx.script.push({ text: STREAMED, chunkDelayMs: 60 });
      await sendPrompt(ctx.page, 'Say something long, with a list and a code block.');
      const view = chatView(ctx.page);
      await view.getByText('Streaming works', { exact: false }).first().waitFor({ timeout: 30000 });
      await shot(ctx, '02-streaming');
      await view.getByText('End of the streamed answer', { exact: false }).first().waitFor({ timeout: 30000 });
      await view.locator('pre code').first().waitFor();
      await shot(ctx, '03-answer-complete');
      const reqs = await waitForChatRequests(ctx, before + 1);
      expect(requestText(reqs[before]!).includes('Say something long'), 'the prompt did not reach the model');
    },
  },
  {
    name: 'a permission card appears and Allow once lets the tool run',
    run: async (ctx) => {
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo allowed-by-e2e > allowed.txt' } }] },
        { text: 'The command ran.' },
      );
      await sendPrompt(ctx.page, 'Write allowed.txt with a shell command.');
      await chatView(ctx.page).getByText('echo allowed-by-e2e', { exact: false }).first().waitFor({ timeout: 30000 });
      await shot(ctx, '04-permission-card');
      await clickChatButton(ctx, /allow once/i);
      await chatView(ctx.page).getByText('The command ran.').first().waitFor({ timeout: 30000 });
      expect(readWorkspaceFile(ctx, 'allowed.txt')?.trim() === 'allowed-by-e2e', 'allowed.txt was not written by the allowed command');
      await shot(ctx, '05-permission-allowed');
    },
  },
  {
    name: 'Deny stops the tool',
    run: async (ctx) => {
      const before = chatRequests(ctx.stub).length;
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo should-not-run > denied.txt' } }] },
        { text: 'Understood, I will not run it.' },
      );
      await sendPrompt(ctx.page, 'Write denied.txt with a shell command.');
      await chatView(ctx.page).getByText('echo should-not-run', { exact: false }).first().waitFor({ timeout: 30000 });
      await clickChatButton(ctx, /^deny$/i);
      await chatView(ctx.page).getByText('Understood, I will not run it.').first().waitFor({ timeout: 30000 });
      expect(readWorkspaceFile(ctx, 'denied.txt') === undefined, 'denied.txt exists: the denied command ran');
      const reqs = await waitForChatRequests(ctx, before + 2);
      expect(/denied|deny/i.test(requestText(reqs[before + 1]!)), 'the model was not told that the tool was denied');
      await shot(ctx, '06-permission-denied');
    },
  },
  {
    name: 'Suggest alternative sends the text to the model and the tool does not run',
    run: async (ctx) => {
      const before = chatRequests(ctx.stub).length;
      const alternative = 'Use the npm clean script instead of deleting files by hand.';
      ctx.script.push(
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo wiped > wiped-by-e2e.txt' } }] },
        { text: 'I will use the clean script instead.' },
      );
      await sendPrompt(ctx.page, 'Clean up the build output.');
      const card = chatView(ctx.page).getByTestId('permission-card').last();
      await card.getByTestId('permission-command').filter({ hasText: 'echo wiped' }).waitFor({ timeout: 30000 });
      await card.getByTestId('permission-alternative').click();
      const input = card.getByTestId('permission-alternative-input');
      await input.waitFor();
      // an empty suggestion is refused and nothing is sent
      await card.getByTestId('permission-alternative-send').click();
      expect((await input.getAttribute('class'))?.includes('invalid'), 'an empty alternative was not marked invalid');
      expect(chatRequests(ctx.stub).length === before + 1, 'an empty alternative reached the model');
      await input.fill(alternative);
      await shot(ctx, '06a-permission-alternative-typed');
      await card.getByTestId('permission-alternative-send').click();
      await chatView(ctx.page).getByText('I will use the clean script instead.').first().waitFor({ timeout: 30000 });
      const resolved = chatView(ctx.page).getByTestId('permission-resolved').last();
      expect((await resolved.getAttribute('data-status')) === 'denied', 'the card did not resolve as denied');
      const said = (await resolved.innerText()).trim();
      expect(said === `Denied; suggested: ${alternative}`, `the resolved line does not show the suggestion: "${said}"`);
      expect(readWorkspaceFile(ctx, 'wiped-by-e2e.txt') === undefined, 'wiped-by-e2e.txt exists: the tool ran despite the alternative');
      const reqs = await waitForChatRequests(ctx, before + 2);
      const toModel = requestText(reqs[before + 1]!);
      expect(toModel.includes(alternative), `the alternative did not reach the model; it got:\n${toModel.slice(-600)}`);
      await shot(ctx, '06b-permission-alternative-sent');
    },
  },
  {
    name: 'a directory-access request is shown and granted once',
    run: async (ctx) => {
      const outside = path.join(path.dirname(ctx.workspace), 'outside');
      fs.mkdirSync(outside, { recursive: true });
      const file = path.join(outside, 'secret-notes.txt');
      fs.writeFileSync(file, 'outside-content-7431\n');
      const before = chatRequests(ctx.stub).length;
      ctx.script.push({ toolCalls: [{ name: 'read_file', arguments: { path: file } }] }, { text: 'I read the outside file.' });
      await sendPrompt(ctx.page, `Read ${file}`);
      const card = chatView(ctx.page).getByTestId('directory-card').last();
      await card.getByTestId('directory-path').filter({ hasText: outside }).waitFor({ timeout: 30000 });
      // in plain words: which kind of access to which file, then the folder once
      const lead = (await card.getByTestId('directory-lead').innerText()).trim();
      expect(lead === 'The agent wants to read secret-notes.txt in:', `the directory-access card says "${lead}"`);
      await shot(ctx, '07-directory-access-card');
      await clickChatButton(ctx, /allow once|grant once|^allow$/i);
      // Some paths also need a permission after the directory grant.
      const done = chatView(ctx.page).getByText('I read the outside file.').first();
      const extra = chatView(ctx.page).getByRole('button', { name: /allow once/i });
      for (let i = 0; i < 3 && !(await done.isVisible()); i++) {
        if (await extra.count()) await extra.last().click().catch(() => undefined);
        await ctx.page.waitForTimeout(1000);
      }
      await done.waitFor({ timeout: 30000 });
      const reqs = await waitForChatRequests(ctx, before + 2);
      expect(requestText(reqs[before + 1]!).includes('outside-content-7431'), 'the granted file content did not reach the model');
      await shot(ctx, '08-directory-access-granted');
    },
  },
];
